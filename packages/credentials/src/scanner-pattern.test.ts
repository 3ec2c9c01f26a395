// LK-07: docs/security-log.md gives secret scanners a regular expression and a checksum to find
// Latchkey credentials. This reads the expression from the page itself, so the docs cannot drift
// from what generateToken makes.
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateToken, parseToken, TokenPrefix } from './token-format.ts';
import { alterChar } from '#test/support/tamper.ts';

const DOC = readFileSync(new URL('../../../docs/security-log.md', import.meta.url), 'utf8');

/** The page's one ```regex block. */
function documentedPattern(): string {
  const blocks = [...DOC.matchAll(/^```regex\n(.+)\n```$/gm)].map((match) => match[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

/** Every match of the documented expression in `text`, as a scanner would run it. */
function scan(text: string): string[] {
  return [...text.matchAll(new RegExp(documentedPattern(), 'g'))].map((match) => match[0]);
}

/** The checksum as the page describes it, written from the page, not from token-format.ts. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function documentedChecksumHolds(value: string): boolean {
  let n = crc32(value.slice(4, 34));
  let digits = '';
  for (let i = 0; i < 6; i++) {
    digits = ALPHABET[n % 62] + digits;
    n = Math.floor(n / 62);
  }
  return digits === value.slice(34);
}

const REPORTABLE = [
  TokenPrefix.personalAccessToken,
  TokenPrefix.accessToken,
  TokenPrefix.refreshToken,
  TokenPrefix.clientSecret,
];

describe('LK-07 the documented secret-scanner pattern', () => {
  it('LK-07 the regular expression in docs/security-log.md finds every reportable kind of generated credential, in text as it leaks', () => {
    expect(documentedPattern()).toBe('\\blk[pors]_[0-9A-Za-z]{36}\\b');
    for (const prefix of REPORTABLE) {
      for (let i = 0; i < 50; i++) {
        const token = generateToken(prefix);
        expect(scan(token), token).toEqual([token]);
        expect(scan(`export LATCHKEY_TOKEN="${token}"\n`)).toEqual([token]);
        expect(scan(`Authorization: Bearer ${token}`)).toEqual([token]);
        expect(scan(`{"client_secret":"${token}","other":1}`)).toEqual([token]);
        expect(scan(`https://example.test/?token=${token}&x=1`)).toEqual([token]);
      }
    }
  });

  it('LK-07 it finds no other string: registration tokens, other prefixes, wrong lengths, other characters, values inside longer words', () => {
    const token = generateToken(TokenPrefix.personalAccessToken);
    const body = token.slice(4);
    for (const other of [
      generateToken(TokenPrefix.initialAccessToken),
      generateToken(TokenPrefix.registrationAccessToken),
      `lkx_${body}`,
      `LKP_${body}`,
      `lkp-${body}`,
      token.slice(0, -1),
      `${token}0`,
      `${token}_x`,
      `x${token}`,
      `${token.slice(0, 10)}-${token.slice(11)}`,
      'lkp_',
      'lkp_this-is-not-a-token',
    ]) {
      expect(scan(other), other).toEqual([]);
    }
  });

  it('LK-07 the checksum as documented (CRC32 of the 30 random characters, 6 base62 digits, most significant first) holds for every generated credential and fails for an altered one', () => {
    for (const prefix of REPORTABLE) {
      for (let i = 0; i < 50; i++) {
        const token = generateToken(prefix);
        expect(documentedChecksumHolds(token), token).toBe(true);
        // One character changed anywhere after the prefix: a false positive the scanner drops.
        const altered = alterChar(token, 4 + (i % 36));
        expect(scan(altered)).toEqual([altered]);
        expect(documentedChecksumHolds(altered), altered).toBe(false);
        expect(parseToken(altered)).toBeUndefined();
      }
    }
  });
});
