import { describe, expect, it } from 'vitest';
import { createTokenSealer } from './token-sealing.ts';
import { alterChar, truncate } from '#test/support/tamper.ts';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const TOKEN = 'lkr_abcdefghijklmnopqrstuvwxyz0123456789';

describe('TS-03 tokens sealed at rest (AES-256-GCM, key from SESSION_SECRET)', () => {
  it('seals and opens; the sealed form does not contain the token and differs every time', () => {
    const sealer = createTokenSealer(SECRET);
    const a = sealer.seal(TOKEN);
    const b = sealer.seal(TOKEN);
    expect(a).not.toBe(b);
    expect(a).not.toContain(TOKEN);
    expect(a).not.toContain('lkr_');
    expect(sealer.open(a)).toBe(TOKEN);
    expect(sealer.open(b)).toBe(TOKEN);
  });

  it('anything altered, truncated or sealed under another secret opens to undefined, never throws', () => {
    const sealer = createTokenSealer(SECRET);
    const sealed = sealer.seal(TOKEN);
    const body = sealed.slice(3);
    const flipped = `v1.${alterChar(body, 10)}`;
    expect(sealer.open(flipped)).toBeUndefined();
    expect(sealer.open(truncate(sealed, sealed.length - 20))).toBeUndefined();
    expect(sealer.open(`v2.${body}`)).toBeUndefined();
    expect(sealer.open('')).toBeUndefined();
    expect(sealer.open('v1.')).toBeUndefined();
    expect(sealer.open('v1.!!!')).toBeUndefined();
    expect(createTokenSealer(`${SECRET}-other`).open(sealed)).toBeUndefined();
  });
});
