import { describe, expect, it } from 'vitest';
import { customDateRange, expirationRequest, parseDateInputValue, validateCustomDate } from './expiration.ts';

const today = new Date(2026, 10, 20, 15, 30); // 20 Nov 2026, local time

describe('token expiration choices', () => {
  it('sends a preset as a number of days', () => {
    expect(expirationRequest('7', '')).toEqual({ expires_in_days: 7 });
    expect(expirationRequest('30', '')).toEqual({ expires_in_days: 30 });
    expect(expirationRequest('90', '')).toEqual({ expires_in_days: 90 });
    expect(expirationRequest('365', '')).toEqual({ expires_in_days: 365 });
  });

  it('sends a custom date as the start of that day in local time', () => {
    const request = expirationRequest('custom', '2027-03-01');
    expect(request).toEqual({ expires_at: new Date(2027, 2, 1).toISOString() });
  });

  it('accepts custom dates from tomorrow to five years on, and nothing else', () => {
    expect(customDateRange(today)).toEqual({ min: '2026-11-21', max: '2031-11-19' });
    expect(validateCustomDate('', today)).toBe('Choose the date the token expires.');
    expect(validateCustomDate('2026-11-20', today)).toBe('Choose a date after today.');
    expect(validateCustomDate('2026-11-21', today)).toBeUndefined();
    expect(validateCustomDate('2031-11-19', today)).toBeUndefined();
    expect(validateCustomDate('2031-11-20', today)).toBe('Choose a date within 5 years.');
    expect(validateCustomDate('2027-02-30', today)).toBe('Enter a valid date.');
  });

  it('parses only real calendar days', () => {
    expect(parseDateInputValue('2028-02-29')?.getDate()).toBe(29);
    expect(parseDateInputValue('2027-02-29')).toBeUndefined();
    expect(parseDateInputValue('27-02-01')).toBeUndefined();
  });
});
