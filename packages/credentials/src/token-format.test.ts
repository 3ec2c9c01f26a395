import { describe, expect, it } from 'vitest';
import { generateToken, lastFour, parseToken, randomBase62, TokenPrefix } from './token-format.ts';
import { constantTimeEqual, digest } from './digest.ts';
import { alterChar, truncate } from '#test/support/tamper.ts';

describe('DD-3 token format', () => {
  it('has the documented shape: prefix, 30 random base62 characters, 6 checksum characters', () => {
    for (const prefix of Object.values(TokenPrefix)) {
      const token = generateToken(prefix);
      expect(token).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{36}$`));
      expect(parseToken(token)).toBe(prefix);
    }
  });

  it('OB-21 rejects any single-character change through the checksum', () => {
    const token = generateToken(TokenPrefix.personalAccessToken);
    for (let i = 4; i < token.length; i++) {
      expect(parseToken(alterChar(token, i)), `position ${i}`).toBeUndefined();
    }
  });

  it('rejects truncated, extended, unknown-prefix and non-base62 values', () => {
    const token = generateToken(TokenPrefix.accessToken);
    expect(parseToken(truncate(token))).toBeUndefined();
    expect(parseToken(`${token}0`)).toBeUndefined();
    expect(parseToken(`lkx_${token.slice(4)}`)).toBeUndefined();
    expect(parseToken(`${token.slice(0, 10)}-${token.slice(11)}`)).toBeUndefined();
    expect(parseToken('')).toBeUndefined();
  });

  it('AC-09/RT-12: tokens are unique and use only the token68-safe base62 charset', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(generateToken(TokenPrefix.refreshToken));
    expect(seen.size).toBe(2000);
    const sample = randomBase62(62 * 200);
    const counts = new Map<string, number>();
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // No character is wildly over-represented (modulo bias would favour the first ones).
    for (const n of counts.values()) expect(n).toBeLessThan(400);
  });

  it('keeps only the last four characters for display', () => {
    expect(lastFour('lkp_abcdefgh')).toBe('efgh');
  });
});

describe('TS-01 digests and CA-08 comparison', () => {
  it('stores a SHA-256 hex digest, never the value', () => {
    const token = generateToken(TokenPrefix.clientSecret);
    const hash = digest(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token.slice(4, 20));
  });

  it('compares in constant time whatever the lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
