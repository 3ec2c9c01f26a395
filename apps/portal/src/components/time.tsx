import { formatDate, formatDateTime } from '../lib/format-date.ts';

/**
 * A date in the reader's locale; the exact moment on hover and for machines, and on screen too
 * with `withTime` (a secret that expires within the hour).
 */
export function Time({ value, withTime = false }: { value: string; withTime?: boolean }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {withTime ? formatDateTime(value) : formatDate(value)}
    </time>
  );
}
