import {
  linkUrlProblem,
  redirectUrlProblem,
  redirectUrlsProblem,
  type LinkUrlField,
  type RedirectUrlField,
} from '@latchkey/contracts';
import { ValidationFailed } from '../errors.ts';
import type { Client } from './client.ts';

/**
 * The rules for the URLs a client registers live in packages/contracts (client-urls.ts), where
 * the portal's forms read them too; here a problem becomes ValidationFailed on its field.
 */
function refuseIf(problem: string | undefined, field: string): void {
  if (problem !== undefined) throw new ValidationFailed(field, problem);
}

/** A redirect or post-logout redirect URL, as registered (RU-09). @see redirectUrlProblem */
export function validateRedirectUriForRegistration(value: string, field: RedirectUrlField = 'redirect_uri'): string {
  refuseIf(redirectUrlProblem(value, field), field);
  return value;
}

/**
 * A client's redirect URLs (CE-02): 1 to MAX_REDIRECT_URIS, each under RU-09, none twice. Their
 * order is kept: the first is the one the portal shows first.
 */
export function validateRedirectUris(
  values: readonly string[],
  field: 'redirect_uri' | 'redirect_uris',
  isPublic = false,
): string[] {
  refuseIf(redirectUrlsProblem(values, field, isPublic)?.message, field);
  return values.map((value) => value.trim());
}

/** A link the consent page shows (homepage, privacy policy, terms). @see linkUrlProblem */
export function validateLinkUrl(value: string, field: LinkUrlField): string {
  refuseIf(linkUrlProblem(value, field), field);
  return value;
}

/** An http loopback IP literal URL, split around its port (RFC 8252 §7.3 names the IP literals, not localhost). */
const LOOPBACK_IP = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]))(?::(\d{1,5}))?([/?].*)?$/s;

/**
 * Whether `redirectUri` from an authorization request is one the client registered (RU-01..RU-08):
 * byte for byte, with one exception (PC-06): a public client's loopback IP redirect URL matches
 * with any port, as RFC 8252 §7.3 requires (a native app gets a free port from the system at run
 * time); everything else about it, path and query included, still compares byte for byte. A
 * confidential client keeps exact matching, port included.
 */
export function redirectUriMatches(client: Client, redirectUri: string): boolean {
  // Array.includes compares with ===: the same code units, nothing normalised (CE-03).
  if (client.redirectUris.includes(redirectUri)) return true;
  if (!client.public) return false;
  const asked = LOOPBACK_IP.exec(redirectUri);
  if (!asked) return false;
  return client.redirectUris.some((registered) => {
    const match = LOOPBACK_IP.exec(registered);
    return match !== null && match[1] === asked[1] && (match[3] ?? '') === (asked[3] ?? '');
  });
}
