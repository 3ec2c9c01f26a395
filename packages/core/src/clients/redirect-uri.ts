import { LOOPBACK_HOSTS, MAX_REDIRECT_URIS } from '@latchkey/contracts';
import { ValidationFailed } from '../errors.ts';

const MAX_LENGTH = 2000;
/** RFC 3986 §2.2, §2.3 and pct-encoded: what a URI may contain as written. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** The URLs a client registers, each with its field name and label. */
const FIELDS = {
  redirect_uri: 'redirect URL',
  redirect_uris: 'redirect URL',
  post_logout_redirect_uri: 'post-logout redirect URL',
  client_uri: 'homepage URL',
  policy_uri: 'privacy policy URL',
  tos_uri: 'terms of service URL',
} as const;
type UrlField = keyof typeof FIELDS;

/**
 * What every URL a client registers must be, whatever it is for: absolute, https or loopback
 * http, only the characters RFC 3986 allows, no user name or password. The consent page links
 * to the details, so a `javascript:` or `data:` URL never gets that far (XSS).
 */
function validateUrl(value: string, field: UrlField): URL {
  const label = FIELDS[field];
  const reject = (description: string): never => {
    throw new ValidationFailed(field, description);
  };
  if (value.length === 0) reject(`Enter a ${label}.`);
  if (value.length > MAX_LENGTH) reject(`The ${label} must be at most ${MAX_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\s\u0000-\u001f\u007f]/.test(value)) reject(`The ${label} must not contain spaces or control characters.`);
  // RFC 3986 §2: only unreserved, reserved and percent-encoded characters. A raw non-ASCII or
  // other character would be compared byte for byte against what a browser sends encoded, and
  // an internationalized host must be registered in its ASCII (punycode) form (HD-04).
  if (!URI_CHARACTERS.test(value)) {
    reject(
      `The ${label} may contain only the characters RFC 3986 allows; percent-encode the others and write an internationalized domain in its xn-- form.`,
    );
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
  return url;
}

/**
 * Registration rules for a client's redirect URL (RU-09; RFC 9700 §2.1, §2.6; OAuth 2.1 §2.3),
 * and for its post-logout redirect URL (RP-Initiated Logout 1.0 §3: registered like it):
 * absolute, https or loopback http, no fragment, no userinfo, no wildcard, no `code` or
 * `state` in its query. The value is stored as given and later compared byte for byte.
 */
export function validateRedirectUriForRegistration(
  value: string,
  field: 'redirect_uri' | 'redirect_uris' | 'post_logout_redirect_uri' = 'redirect_uri',
): string {
  const label = FIELDS[field];
  if (value.includes('#')) throw new ValidationFailed(field, `The ${label} must not contain a fragment (#).`);
  if (value.includes('*')) throw new ValidationFailed(field, `The ${label} must not contain a wildcard (*).`);
  const url = validateUrl(value, field);
  if (url.searchParams.has('code') || url.searchParams.has('state') || url.searchParams.has('iss')) {
    throw new ValidationFailed(field, `The ${label} must not carry code, state or iss query parameters.`);
  }
  return value;
}

/**
 * A client’s redirect URLs (CE-02): 1 to MAX_REDIRECT_URIS, each under the rules above, none
 * twice. Their order is kept: the first is the one the portal shows first.
 */
export function validateRedirectUris(values: readonly string[], field: 'redirect_uri' | 'redirect_uris'): string[] {
  if (values.length === 0) throw new ValidationFailed(field, 'Enter at least one redirect URL.');
  if (values.length > MAX_REDIRECT_URIS) {
    throw new ValidationFailed(field, `A client may register at most ${MAX_REDIRECT_URIS} redirect URLs.`);
  }
  const uris = values.map((value) => validateRedirectUriForRegistration(value.trim(), field));
  if (new Set(uris).size !== uris.length) throw new ValidationFailed(field, 'Each redirect URL may be listed once.');
  return uris;
}

/** A link the consent page shows (homepage, privacy policy, terms): an https or loopback http URL. */
export function validateLinkUrl(value: string, field: 'client_uri' | 'policy_uri' | 'tos_uri'): string {
  validateUrl(value, field);
  return value;
}
