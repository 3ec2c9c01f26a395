import {
  linkUrlProblem,
  redirectUrlProblem,
  redirectUrlsProblem,
  type LinkUrlField,
  type RedirectUrlField,
} from '@latchkey/contracts';
import { ValidationFailed } from '../errors.ts';

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
export function validateRedirectUris(values: readonly string[], field: 'redirect_uri' | 'redirect_uris'): string[] {
  refuseIf(redirectUrlsProblem(values, field)?.message, field);
  return values.map((value) => value.trim());
}

/** A link the consent page shows (homepage, privacy policy, terms). @see linkUrlProblem */
export function validateLinkUrl(value: string, field: LinkUrlField): string {
  refuseIf(linkUrlProblem(value, field), field);
  return value;
}
