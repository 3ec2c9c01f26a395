import { LOOPBACK_HOSTS, MAX_REDIRECT_URIS } from './limits.ts';

/**
 * The rules for every URL a client registers, written once (issue 27): the server refuses with
 * them (packages/core/src/clients/redirect-uri.ts turns a problem into ValidationFailed) and the
 * portal's forms show them before a round trip (apps/portal/src/features/clients/validation/).
 * Each check returns the problem, in the words people see, or undefined.
 */

const MAX_URL_LENGTH = 2000;
/** RFC 3986 §2.2, §2.3 and pct-encoded: what a URI may contain as written. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** The URLs a client registers, by their field name in the account API, with their label. */
export const CLIENT_URL_LABELS = {
  redirect_uri: 'redirect URL',
  redirect_uris: 'redirect URL',
  post_logout_redirect_uri: 'post-logout redirect URL',
  client_uri: 'homepage URL',
  policy_uri: 'privacy policy URL',
  tos_uri: 'terms of service URL',
} as const;
export type ClientUrlField = keyof typeof CLIENT_URL_LABELS;
export type RedirectUrlField = 'redirect_uri' | 'redirect_uris' | 'post_logout_redirect_uri';
export type LinkUrlField = 'client_uri' | 'policy_uri' | 'tos_uri';

/**
 * What every URL a client registers must be, whatever it is for: absolute, https or loopback
 * http, only the characters RFC 3986 allows, no user name or password. The consent page links
 * to the details, so a `javascript:` or `data:` URL never gets that far (XSS).
 */
function urlProblem(value: string, field: ClientUrlField): string | undefined {
  const label = CLIENT_URL_LABELS[field];
  if (value.length === 0) return `Enter a ${label}.`;
  if (value.length > MAX_URL_LENGTH) return `The ${label} must be at most ${MAX_URL_LENGTH} characters.`;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return `The ${label} must not contain spaces or control characters.`;
  // RFC 3986 §2: only unreserved, reserved and percent-encoded characters. A raw non-ASCII or
  // other character would be compared byte for byte against what a browser sends encoded, and
  // an internationalized host must be registered in its ASCII (punycode) form (HD-04).
  if (!URI_CHARACTERS.test(value)) {
    return `The ${label} may contain only the characters RFC 3986 allows; percent-encode the others and write an internationalized domain in its xn-- form.`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `The ${label} must be an absolute URL such as https://app.example/callback.`;
  }
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?]*@/i.test(value)) {
    return `The ${label} must not contain a user name or password.`;
  }
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return 'Use https, or http only for localhost, 127.0.0.1 or [::1].';
  } else if (url.protocol !== 'https:') {
    return `The ${label} must use https (or http for a loopback address).`;
  }
  return undefined;
}

/**
 * A client's redirect URL (RU-09; RFC 9700 §2.1, §2.6; OAuth 2.1 §2.3), and its post-logout
 * redirect URL (RP-Initiated Logout 1.0 §3: registered like it): absolute, https or loopback
 * http, no fragment, no userinfo, no wildcard, no `code`, `state` or `iss` in its query. The
 * value is stored as given and later compared byte for byte.
 */
export function redirectUrlProblem(
  value: string,
  field: RedirectUrlField = 'redirect_uri',
  isPublic = false,
): string | undefined {
  const label = CLIENT_URL_LABELS[field];
  if (value.includes('#')) return `The ${label} must not contain a fragment (#).`;
  if (value.includes('*')) return `The ${label} must not contain a wildcard (*).`;
  const problem = isPublic && isPrivateUseScheme(value) ? privateUseProblem(value, label) : urlProblem(value, field);
  if (problem) return problem;
  const { searchParams } = new URL(value);
  if (searchParams.has('code') || searchParams.has('state') || searchParams.has('iss')) {
    return `The ${label} must not carry code, state or iss query parameters.`;
  }
  return undefined;
}

/**
 * PC-05: a private-use URI scheme (RFC 8252 §7.1), which only a public (native) client may
 * register: a reverse domain name with at least one dot, such as `com.example.app:/callback`. The
 * dot keeps out `javascript:`, `data:` and every other single-word scheme (RFC 8252 §8.4).
 */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:/i;

function isPrivateUseScheme(value: string): boolean {
  return PRIVATE_USE_SCHEME.test(value) && !/^https?:/i.test(value);
}

function privateUseProblem(value: string, label: string): string | undefined {
  if (value.length > MAX_URL_LENGTH) return `The ${label} must be at most ${MAX_URL_LENGTH} characters.`;
  if (!URI_CHARACTERS.test(value)) return `The ${label} may contain only the characters RFC 3986 allows.`;
  const rest = value.slice(value.indexOf(':') + 1);
  if (!rest.startsWith('/')) return `Write the ${label} as a scheme and a path, such as com.example.app:/callback.`;
  if (/[?&](code|state|iss)=/.test(rest)) return `The ${label} must not carry code, state or iss query parameters.`;
  return undefined;
}

/**
 * A client's redirect URLs (CE-02): 1 to MAX_REDIRECT_URIS, each trimmed and under the rules
 * above, none twice. `url` names the one at fault, when one is.
 */
export function redirectUrlsProblem(
  values: readonly string[],
  field: 'redirect_uri' | 'redirect_uris',
  isPublic = false,
): { message: string; url?: string } | undefined {
  if (values.length === 0) return { message: 'Enter at least one redirect URL.' };
  if (values.length > MAX_REDIRECT_URIS) {
    return { message: `A client may register at most ${MAX_REDIRECT_URIS} redirect URLs.` };
  }
  const uris = values.map((value) => value.trim());
  for (const url of uris) {
    const message = redirectUrlProblem(url, field, isPublic);
    if (message) return { message, url };
  }
  if (new Set(uris).size !== uris.length) return { message: 'Each redirect URL may be listed once.' };
  return undefined;
}

/** A link the consent page shows (homepage, privacy policy, terms): an https or loopback http URL. */
export function linkUrlProblem(value: string, field: LinkUrlField): string | undefined {
  return urlProblem(value, field);
}
