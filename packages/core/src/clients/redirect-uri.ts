import { LOOPBACK_HOSTS } from '@latchkey/contracts';
import { ValidationFailed } from '../errors.ts';

const MAX_LENGTH = 2000;
/** RFC 3986 §2.2, §2.3 and pct-encoded: what a URI may contain as written. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** The two URLs a client registers under the same rules, each with its field name and label. */
const FIELDS = {
  redirect_uri: 'redirect URL',
  post_logout_redirect_uri: 'post-logout redirect URL',
} as const;

/**
 * Registration rules for a client's redirect URL (RU-09; RFC 9700 §2.1, §2.6; OAuth 2.1 §2.3),
 * and for its post-logout redirect URL (RP-Initiated Logout 1.0 §3: registered like it):
 * absolute, https or loopback http, no fragment, no userinfo, no wildcard, no `code` or
 * `state` in its query. The value is stored as given and later compared byte for byte.
 */
export function validateRedirectUriForRegistration(
  value: string,
  field: keyof typeof FIELDS = 'redirect_uri',
): string {
  const label = FIELDS[field];
  const reject = (description: string): never => {
    throw new ValidationFailed(field, description);
  };
  if (value.length === 0) reject(`Enter a ${label}.`);
  if (value.length > MAX_LENGTH) reject(`The ${label} must be at most ${MAX_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\s\u0000-\u001f\u007f]/.test(value)) reject(`The ${label} must not contain spaces or control characters.`);
  if (value.includes('#')) reject(`The ${label} must not contain a fragment (#).`);
  if (value.includes('*')) reject(`The ${label} must not contain a wildcard (*).`);
  // RFC 3986 §2: only unreserved, reserved and percent-encoded characters. A raw non-ASCII or
  // other character would be compared byte for byte against what a browser sends encoded, and
  // an internationalized host must be registered in its ASCII (punycode) form (HD-04).
  if (!URI_CHARACTERS.test(value)) {
    reject(`The ${label} may contain only the characters RFC 3986 allows; percent-encode the others and write an internationalized domain in its xn-- form.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return reject(`The ${label} must be an absolute URL such as https://app.example/callback.`);
  }
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?]*@/i.test(value)) {
    reject(`The ${label} must not contain a user name or password.`);
  }
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) reject('Use https, or http only for localhost, 127.0.0.1 or [::1].');
  } else if (url.protocol !== 'https:') {
    reject(`The ${label} must use https (or http for a loopback address).`);
  }
  if (url.searchParams.has('code') || url.searchParams.has('state') || url.searchParams.has('iss')) {
    reject(`The ${label} must not carry code, state or iss query parameters.`);
  }
  return value;
}
