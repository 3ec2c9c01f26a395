import { formatDate, formatDateTime } from '../lib/format-date.ts';

/** A date in the reader's locale; the exact moment on hover and for machines. */
export function Time({ value }: { value: string }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatDate(value)}
    </time>
  );
}
