/**
 * The limits every side states the same way (issue 16): core enforces them, the portal and the
 * sign-up page mirror them for instant feedback, the CLI checks its options against them.
 */

/** Every name a person reads (client, user, token): 1 to this many characters. */
export const MAX_NAME_LENGTH = 100;

/** The longest a personal access token may live: five years. */
export const MAX_TOKEN_LIFETIME_DAYS = 5 * 365;

/** The hosts a redirect URL may reach over plain http (RFC 8252 §7.3 loopback redirection). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** How many redirect URLs one client may register (issue 19). */
export const MAX_REDIRECT_URIS = 10;

/** A client's description on the consent page, and a personal access token's (TR-01): at most this many characters. */
export const MAX_DESCRIPTION_LENGTH = 300;

/** SR-02: a confidential client holds at most this many live secrets (the one in use and its successor). */
export const MAX_CLIENT_SECRETS = 2;

/**
 * SR-03: when the secret in use stops working after a new one is generated, as chosen by the
 * developer; not chosen, it works until deleted.
 */
export const SECRET_EXPIRIES = {
  '1h': 60 * 60 * 1000,
  '1d': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
} as const;
export type SecretExpiry = keyof typeof SECRET_EXPIRIES;

/**
 * TR-03: how long the old value of a rolled personal access token keeps working, as chosen by
 * its owner; `none` refuses it at once. Afterwards it is refused as revoked.
 */
export const ROLL_OVERLAPS = {
  none: 0,
  '1h': 60 * 60 * 1000,
  '24h': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
} as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;
export const DEFAULT_ROLL_OVERLAP: RollOverlap = 'none';

export function isRollOverlap(value: unknown): value is RollOverlap {
  return typeof value === 'string' && Object.hasOwn(ROLL_OVERLAPS, value);
}

/** TR-09: the most days ahead a token may expire and be marked as expiring soon. */
export const EXPIRING_SOON_DAYS = 7;

/**
 * TR-09: an active token "expires soon" when less than a fifth of its lifetime and at most
 * EXPIRING_SOON_DAYS remain: a new 7-day token does not, a year-long one does 7 days before.
 * Times in ms.
 */
export function expiresSoon(createdAt: number, expiresAt: number, now: number): boolean {
  const remaining = expiresAt - now;
  if (remaining <= 0) return false;
  return remaining < (expiresAt - createdAt) / 5 && remaining <= EXPIRING_SOON_DAYS * 24 * 60 * 60 * 1000;
}

/**
 * TR-08: on every answer of the API to a request whose token was accepted, when that token
 * expires (RFC 3339, UTC), so a client can renew it before it is refused. CORS exposes it.
 */
export const TOKEN_EXPIRES_AT_HEADER = 'Latchkey-Token-Expires-At';
