import { randomPoolBytes } from './random-pool.ts';
import { crc32 } from 'node:zlib';

/**
 * Credential prefixes (DD-3). The prefix tells a reader what leaked; the CRC32
 * suffix lets the server reject a mistyped or truncated value before any database read.
 */
export const TokenPrefix = {
  personalAccessToken: 'lkp',
  accessToken: 'lko',
  refreshToken: 'lkr',
  clientSecret: 'lks',
  /** DR-*: opens /oauth/register when DYNAMIC_CLIENT_REGISTRATION=token (RFC 7591 §3 initial access token). */
  initialAccessToken: 'lki',
  /** DR-*: reads or deletes one dynamically registered client (RFC 7592 registration access token). */
  registrationAccessToken: 'lkm',
} as const;
export type TokenPrefix = (typeof TokenPrefix)[keyof typeof TokenPrefix];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = /^(lkp|lko|lkr|lks|lki|lkm)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

/** Uniform base62 string from the CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomPoolBytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would bias the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function base62Checksum(random: string): string {
  let n = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * `<prefix>_<30 base62 random><6 base62 CRC32 of the random part>`: 30 base62 characters
 * carry 178 bits of entropy (AC-09, RT-12: at least 128).
 */
export function generateToken(prefix: TokenPrefix): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${prefix}_${random}${base62Checksum(random)}`;
}

const PREFIX_LENGTH = 4; // "lkp_"
const TOKEN_LENGTH = PREFIX_LENGTH + RANDOM_LENGTH + CHECKSUM_LENGTH;

/**
 * Returns the prefix when the value is well formed and its checksum matches, else undefined.
 * On every API request: the pattern is tested without captures and the checksum compared digit
 * by digit, no string built (OB-21).
 */
export function parseToken(value: string): TokenPrefix | undefined {
  if (value.length !== TOKEN_LENGTH || !TOKEN_PATTERN.test(value)) return undefined;
  let n = crc32(value.slice(PREFIX_LENGTH, PREFIX_LENGTH + RANDOM_LENGTH));
  for (let i = TOKEN_LENGTH - 1; i >= TOKEN_LENGTH - CHECKSUM_LENGTH; i--) {
    if (value.charCodeAt(i) !== ALPHABET.charCodeAt(n % 62)) return undefined;
    n = Math.floor(n / 62);
  }
  return value.slice(0, PREFIX_LENGTH - 1) as TokenPrefix;
}

/** True when the value is a well-formed token of the given kind. */
export function hasTokenShape(value: string, prefix: TokenPrefix): boolean {
  return parseToken(value) === prefix;
}

/** The last four characters, the only part of a credential kept for display. */
export function lastFour(value: string): string {
  return value.slice(-4);
}
