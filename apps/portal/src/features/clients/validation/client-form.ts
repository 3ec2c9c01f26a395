import {
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  linkUrlProblem,
  redirectUrlProblem,
  redirectUrlsProblem,
  type LinkUrlField,
} from '@latchkey/contracts';

/**
 * The API clients form's checks, so mistakes show before a round trip. The URL rules are the
 * server's own (packages/contracts client-urls.ts, RU-09, CE-02), with its words; the server
 * still decides (the reserved name, for one, is checked there only), and its `field` errors are
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
 * A redirect URL, or with `post_logout_redirect_uri` the post-logout one (docs/sign-out.md):
 * absolute, https or loopback http, no fragment, no wildcard, no user name or password; a
 * public client's redirect URL may also be a private-use scheme (PC-05).
 */
export function validateRedirectUrl(
  value: string,
  field: 'redirect_uri' | 'post_logout_redirect_uri' = 'redirect_uri',
  isPublic = false,
): string | undefined {
  return redirectUrlProblem(value.trim(), field, isPublic);
}

export function validateClientForm(input: {
  name: string;
  redirectUri: string;
  postLogoutRedirectUri?: string;
  public?: boolean;
}): ClientFormErrors {
  const errors: ClientFormErrors = {};
  const name = validateClientName(input.name);
  const redirectUri = validateRedirectUrl(input.redirectUri, 'redirect_uri', input.public);
  // Optional: checked only when given.
  const postLogout = input.postLogoutRedirectUri?.trim()
    ? validateRedirectUrl(input.postLogoutRedirectUri, 'post_logout_redirect_uri')
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

/** 1 to MAX_REDIRECT_URIS redirect URLs, each under RU-09 (PC-05), none twice (CE-02); names the URL at fault. */
export function validateRedirectUrls(urls: readonly string[], isPublic = false): string | undefined {
  const problem = redirectUrlsProblem(urls, 'redirect_uris', isPublic);
  if (!problem) return undefined;
  return problem.url === undefined ? problem.message : `${problem.url}: ${problem.message}`;
}

/** A page the consent screen links to (homepage, privacy policy, terms); blank means none. */
export function validateLinkUrl(value: string, field: LinkUrlField): string | undefined {
  const url = value.trim();
  return url.length === 0 ? undefined : linkUrlProblem(url, field);
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

/** The edit dialog's checks, core's own rules (CE-02, CE-06, PC-05); the server still decides. */
export function validateClientEditForm(input: ClientEditInput, isPublic = false): ClientEditErrors {
  const found: ClientEditErrors = {
    name: validateClientName(input.name),
    redirectUris: validateRedirectUrls(parseRedirectUrls(input.redirectUris), isPublic),
    postLogoutRedirectUri: input.postLogoutRedirectUri.trim()
      ? validateRedirectUrl(input.postLogoutRedirectUri, 'post_logout_redirect_uri')
      : undefined,
    description:
      input.description.trim().length > MAX_DESCRIPTION_LENGTH
        ? `Use at most ${MAX_DESCRIPTION_LENGTH} characters.`
        : undefined,
    homepage: validateLinkUrl(input.homepage, 'client_uri'),
    privacyPolicy: validateLinkUrl(input.privacyPolicy, 'policy_uri'),
    terms: validateLinkUrl(input.terms, 'tos_uri'),
  };
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message !== undefined));
}
