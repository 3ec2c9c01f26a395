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

/** A client's description on the consent page: at most this many characters. */
export const MAX_DESCRIPTION_LENGTH = 300;

/** SR-02: a confidential client holds at most this many live secrets (the one in use and its successor). */
export const MAX_CLIENT_SECRETS = 2;

/**
 * SR-03: when the secret in use stops working after a new one is generated, as chosen by the
 * developer; not chosen, it works until deleted.
 */
export const SECRET_EXPIRIES = { '1h': 60 * 60 * 1000, '1d': 24 * 60 * 60 * 1000, '7d': 7 * 24 * 60 * 60 * 1000 } as const;
export type SecretExpiry = keyof typeof SECRET_EXPIRIES;
