const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Largest first: the first unit the distance reaches is the one it is told in. */
const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * DAY],
  ['month', 30 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
  ['second', SECOND],
];

const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/**
 * "2 days ago", "in 3 days", "yesterday": how far `iso` is from `now` (ms), in the reader's
 * locale, in the largest unit it reaches (days up to a month, so "in 27 days" stays exact
 * enough to act on). Used for when a token was last used and when one expires (TR-10, TR-15).
 */
export function formatRelativeTime(iso: string, now: number): string {
  const distance = Date.parse(iso) - now;
  const [unit, ms] = UNITS.find(([, size]) => Math.abs(distance) >= size) ?? UNITS[UNITS.length - 1]!;
  return relativeFormat.format(Math.round(distance / ms), unit);
}
