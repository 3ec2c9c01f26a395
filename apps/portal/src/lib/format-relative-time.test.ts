import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './format-relative-time.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = Date.parse('2026-11-20T12:00:00Z');
const from = (offset: number) => formatRelativeTime(new Date(now + offset).toISOString(), now);

describe('how far a time is from now (TR-10, TR-15)', () => {
  it('uses the largest unit the distance reaches, rounded, past or future', () => {
    expect(from(-30 * 1000)).toBe('30 seconds ago');
    expect(from(-5 * MINUTE)).toBe('5 minutes ago');
    expect(from(-3 * HOUR)).toBe('3 hours ago');
    expect(from(-2 * DAY)).toBe('2 days ago');
    expect(from(-DAY)).toBe('yesterday');
    expect(from(3 * DAY - MINUTE)).toBe('in 3 days');
    expect(from(27 * DAY)).toBe('in 27 days');
    expect(from(-65 * DAY)).toBe('2 months ago');
    expect(from(400 * DAY)).toBe('next year');
  });
});
