import { MAX_TOKEN_LIFETIME_DAYS } from '@latchkey/contracts';

/**
 * Token expiration choices of the API tokens page (7, 30, 90 days, 1 year by
 * default, or a custom date) and what each sends to POST /bff/api/tokens.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** The server's ceiling on a token's lifetime (five years), mirrored for instant feedback. */
export const MAX_LIFETIME_DAYS = MAX_TOKEN_LIFETIME_DAYS;

export const EXPIRATION_CHOICES = [
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
  { value: 'custom', label: 'Custom date', days: undefined },
] as const;

export type ExpirationChoice = (typeof EXPIRATION_CHOICES)[number]['value'];
export const DEFAULT_EXPIRATION: ExpirationChoice = '365';

export type ExpirationRequest = { expires_in_days: number } | { expires_at: string };

/** `YYYY-MM-DD` of a local date, as `<input type="date">` uses. */
export function toDateInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The start (00:00, local time) of a `YYYY-MM-DD` day, or undefined when it is not a real date. */
export function parseDateInputValue(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : undefined;
}

export function addDays(date: Date, days: number): Date {
  const next = new Date(date);
  next.setDate(next.getDate() + days);
  return next;
}

/** The earliest and latest days a custom expiration may take: tomorrow to five years on. */
export function customDateRange(today: Date): { min: string; max: string } {
  return { min: toDateInputValue(addDays(today, 1)), max: toDateInputValue(addDays(today, MAX_LIFETIME_DAYS)) };
}

export function validateCustomDate(value: string, today: Date): string | undefined {
  if (value === '') return 'Choose the date the token expires.';
  const date = parseDateInputValue(value);
  if (!date) return 'Enter a valid date.';
  const { min, max } = customDateRange(today);
  if (value < min) return 'Choose a date after today.';
  if (value > max) return 'Choose a date within 5 years.';
  return undefined;
}

/**
 * A preset sends a number of days; a custom date expires at the start of that day in the
 * user's time zone, sent as an absolute instant so the list shows the same day back.
 */
export function expirationRequest(choice: ExpirationChoice, customDate: string): ExpirationRequest {
  const preset = EXPIRATION_CHOICES.find((option) => option.value === choice);
  if (preset?.days !== undefined) return { expires_in_days: preset.days };
  const date = parseDateInputValue(customDate);
  if (!date) throw new Error('expirationRequest: validate the custom date first');
  return { expires_at: date.toISOString() };
}

/** When a token made now with this choice would expire (for the form's hint). */
export function expiryPreview(choice: ExpirationChoice, customDate: string, now: Date): Date | undefined {
  const preset = EXPIRATION_CHOICES.find((option) => option.value === choice);
  if (preset?.days !== undefined) return new Date(now.getTime() + preset.days * DAY_MS);
  return parseDateInputValue(customDate);
}
