import { createHash } from 'node:crypto';
import type { User } from '../users/user.ts';

/**
 * OpenID Connect Core §3.1.3.6 `at_hash`: the base64url of the left half of the hash of the access
 * token's ASCII bytes, the hash being the one of the ID token's `alg` (SHA-256 for RS256 and ES256).
 */
export function accessTokenHash(accessToken: string): string {
  const hash = createHash('sha256').update(accessToken, 'ascii').digest();
  return hash.subarray(0, hash.length / 2).toString('base64url');
}

/**
 * Who an ID token is about and how they signed in (OI-02), for a code or refresh whose new access
 * token holds `openid`. It is read before the code or refresh token is consumed, so once tokens
 * are issued nothing but signing is left: a database failure then costs the client nothing.
 */
export interface IdTokenSubject {
  user: User;
  /** When the user signed in (ms since the epoch); null for a code issued before OpenID Connect. */
  authTime: number | null;
  /** OI-04: the nonce of the code's authorization request; never on a refresh (OI-06). */
  nonce: string | null;
}
