import { createHash } from 'node:crypto';
import { constantTimeEqual } from '@latchkey/credentials';

/** RFC 7636 §4.1: code-verifier = 43*128unreserved; the S256 challenge has the same charset. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isValidPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

// PK-01, TK-AC-08: the token endpoint's check that the verifier matches the S256 challenge given at authorize.
/** RFC 7636 §4.6, compared in constant time. */
export function verifierMatchesChallenge(verifier: string, challenge: string): boolean {
  return isValidPkceValue(verifier) && constantTimeEqual(s256(verifier), challenge);
}
