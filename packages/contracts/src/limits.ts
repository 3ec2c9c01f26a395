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
