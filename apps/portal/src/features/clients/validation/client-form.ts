import { LOOPBACK_HOSTS, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_REDIRECT_URIS } from '@latchkey/contracts';

/**
 * The API clients form's checks, mirroring the server's (packages/core/src/clients/redirect-uri.ts,
 * RU-09) so mistakes show before a round trip. The server still decides; its `field` errors are
 * shown in the same places.
 */

export interface ClientFormErrors {
  name?: string;
  redirectUri?: string;
  postLogoutRedirectUri?: string;
}

export function validateClientName(value: string): string | undefined {
  const name = value.trim();
  if (name.length === 0) return 'Enter a client name.';
  if (name.length > MAX_NAME_LENGTH) return `Use at most ${MAX_NAME_LENGTH} characters.`;
  return undefined;
}

/**
 * Absolute, https or loopback http, no fragment, no wildcard, no user name or password. The
 * post-logout redirect URL follows the same rules (docs/sign-out.md); `label` names it.
 */
export function validateRedirectUrl(value: string, label = 'redirect URL'): string | undefined {
  const url = value.trim();
  if (url.length === 0) return `Enter a ${label}.`;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return `The ${label} must not contain spaces.`;
  if (url.includes('*')) return `The ${label} must not contain a wildcard (*).`;
  if (url.includes('#')) return `The ${label} must not contain a fragment (#).`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter an absolute URL, such as https://app.example.com/callback.';
  }
  if (parsed.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(parsed.hostname)) return 'Use https, or http only for localhost, 127.0.0.1 or [::1].';
  } else if (parsed.protocol !== 'https:') {
    return `The ${label} must use https (or http for localhost).`;
  }
  if (parsed.username || parsed.password) return `The ${label} must not contain a user name or password.`;
  if (parsed.searchParams.has('code') || parsed.searchParams.has('state') || parsed.searchParams.has('iss')) {
    return `The ${label} must not carry code, state or iss query parameters.`;
  }
  return undefined;
}

export function validateClientForm(input: {
  name: string;
  redirectUri: string;
  postLogoutRedirectUri?: string;
}): ClientFormErrors {
  const errors: ClientFormErrors = {};
  const name = validateClientName(input.name);
  const redirectUri = validateRedirectUrl(input.redirectUri);
  // Optional: checked only when given.
  const postLogout = input.postLogoutRedirectUri?.trim()
    ? validateRedirectUrl(input.postLogoutRedirectUri, 'post-logout redirect URL')
    : undefined;
  if (name) errors.name = name;
  if (redirectUri) errors.redirectUri = redirectUri;
  if (postLogout) errors.postLogoutRedirectUri = postLogout;
  return errors;
}

/** The redirect URLs box: one per line; blank lines do not count. */
export function parseRedirectUrls(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** 1 to MAX_REDIRECT_URIS redirect URLs, each under RU-09, none twice (CE-02). */
export function validateRedirectUrls(urls: readonly string[]): string | undefined {
  if (urls.length === 0) return 'Enter at least one redirect URL.';
  if (urls.length > MAX_REDIRECT_URIS) return `Use at most ${MAX_REDIRECT_URIS} redirect URLs.`;
  for (const url of urls) {
    const problem = validateRedirectUrl(url);
    if (problem) return `${url}: ${problem}`;
  }
  if (new Set(urls).size !== urls.length) return 'Each redirect URL may be listed once.';
  return undefined;
}

/** A page the consent screen links to (homepage, privacy policy, terms): https, or http for localhost. */
export function validateLinkUrl(value: string, label: string): string | undefined {
  const url = value.trim();
  if (url.length === 0) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `Enter the ${label} as an absolute URL, such as https://app.example.com/.`;
  }
  if (parsed.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(parsed.hostname)) return 'Use https, or http only for localhost, 127.0.0.1 or [::1].';
  } else if (parsed.protocol !== 'https:') {
    return `The ${label} must use https (or http for localhost).`;
  }
  if (parsed.username || parsed.password) return `The ${label} must not contain a user name or password.`;
  return undefined;
}

export interface ClientEditInput {
  name: string;
  redirectUris: string;
  postLogoutRedirectUri: string;
  description: string;
  homepage: string;
  privacyPolicy: string;
  terms: string;
}

export type ClientEditErrors = Partial<Record<keyof ClientEditInput, string>>;

/** The edit dialog's checks, mirroring core's (CE-02, CE-06); the server still decides. */
export function validateClientEditForm(input: ClientEditInput): ClientEditErrors {
  const found: ClientEditErrors = {
    name: validateClientName(input.name),
    redirectUris: validateRedirectUrls(parseRedirectUrls(input.redirectUris)),
    postLogoutRedirectUri: input.postLogoutRedirectUri.trim()
      ? validateRedirectUrl(input.postLogoutRedirectUri, 'post-logout redirect URL')
      : undefined,
    description:
      input.description.trim().length > MAX_DESCRIPTION_LENGTH
        ? `Use at most ${MAX_DESCRIPTION_LENGTH} characters.`
        : undefined,
    homepage: validateLinkUrl(input.homepage, 'homepage URL'),
    privacyPolicy: validateLinkUrl(input.privacyPolicy, 'privacy policy URL'),
    terms: validateLinkUrl(input.terms, 'terms of service URL'),
  };
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message !== undefined));
}
