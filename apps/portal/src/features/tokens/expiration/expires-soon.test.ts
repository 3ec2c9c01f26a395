import { describe, expect, it } from 'vitest';
import { expiringSoonMessage, tokenExpiresSoon } from './expires-soon.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-11-20T12:00:00Z');
const at = (ms: number) => new Date(ms).toISOString();

/** An active, never rolled token made `ageDays` ago to live `lifetimeDays`. */
function token(
  name: string,
  lifetimeDays: number,
  ageDays: number,
  overrides: Partial<Parameters<typeof tokenExpiresSoon>[0]> = {},
) {
  const created = now - ageDays * DAY;
  return {
    name,
    status: 'active' as const,
    created_at: at(created),
    expires_at: at(created + lifetimeDays * DAY),
    replaced_by: null,
    ...overrides,
  };
}

describe('TR-09 expires soon', () => {
  it('TR-09 a new 7-day token does not expire soon; a 30-day token with 3 days left does', () => {
    expect(tokenExpiresSoon(token('fresh', 7, 0), now)).toBe(false);
    expect(tokenExpiresSoon(token('deploy', 30, 27), now)).toBe(true);
  });

  it('TR-09 needs both less than a fifth of the lifetime and at most 7 days left', () => {
    // A 7-day token: a fifth is 1.4 days.
    expect(tokenExpiresSoon(token('short', 7, 5.5), now)).toBe(false);
    expect(tokenExpiresSoon(token('short', 7, 5.7), now)).toBe(true);
    // A year-long token: 7 days left, not 8.
    expect(tokenExpiresSoon(token('long', 365, 357), now)).toBe(false);
    expect(tokenExpiresSoon(token('long', 365, 358), now)).toBe(true);
  });

  it('TR-09 only active tokens that were not rolled are marked', () => {
    expect(tokenExpiresSoon(token('gone', 30, 27, { status: 'revoked' }), now)).toBe(false);
    expect(tokenExpiresSoon(token('old', 30, 31, { status: 'expired' }), now)).toBe(false);
    expect(tokenExpiresSoon(token('rolled', 30, 27, { replaced_by: 'tok_new' }), now)).toBe(false);
  });
});

describe('TR-10 the expiring-soon message', () => {
  it('TR-10 names each token that expires soon and when, and is undefined when none does', () => {
    expect(expiringSoonMessage([token('fresh', 7, 0), token('yearly', 365, 10)], now)).toBeUndefined();
    expect(expiringSoonMessage([token('deploy', 30, 27), token('fresh', 7, 0)], now)).toBe(
      '1 token expires soon: deploy (in 3 days). Roll it to keep it working.',
    );
    expect(expiringSoonMessage([token('deploy', 30, 27), token('backup', 365, 360)], now)).toBe(
      '2 tokens expire soon: deploy (in 3 days) and backup (in 5 days). Roll them to keep them working.',
    );
  });
});
