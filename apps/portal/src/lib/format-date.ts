const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "Mar 1, 2027" in the reader's locale. */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** "Mar 1, 2027, 14:05": the exact moment, for a tooltip or a `<time>` title. */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}
