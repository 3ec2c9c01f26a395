import { MAX_TOKEN_LIFETIME_DAYS } from '@latchkey/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Core's ceiling on a token's lifetime (five years), from the one place it is stated. */
export const MAX_EXPIRES_IN_DAYS = MAX_TOKEN_LIFETIME_DAYS;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})$/;

function validCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Parses the `expires_at` of a new token: an ISO 8601 date (`2027-03-01`, meaning midnight UTC
 * at the start of that day, as `new Date('2027-03-01')` reads it) or a date-time with an
 * explicit offset (`2027-03-01T12:00:00Z`). A date-time without an offset is refused rather
 * than read in the server's time zone. Impossible dates (February 30) are refused, which
 * `Date.parse` alone would roll over into March.
 */
export function parseExpiresAt(value: string): number | undefined {
  const date = DATE.exec(value);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    return validCalendarDate(year, month, day) ? Date.UTC(year, month - 1, day) : undefined;
  }
  const dateTime = DATE_TIME.exec(value);
  if (!dateTime) return undefined;
  const [year, month, day, hour, minute, second] = dateTime.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  if (!validCalendarDate(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function daysFrom(now: number, days: number): number {
  return now + days * DAY_MS;
}
