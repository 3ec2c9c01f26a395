import { redirectUriMatches, type Client } from '@latchkey/core';
import type { AssembledParams } from './authorize-params.ts';
import { InvalidAuthorizationRequest } from './authorize.errors.ts';

/**
 * Step 2: `redirect_uri` is required (the documented interface; AZ-05) and must equal one of the
 * registered values character for character (RFC 9700 §2.1 "exact string matching"): no
 * normalisation of case, default port, trailing slash, percent-encoding or query (RU-01, RU-02,
 * RU-03, RU-04, RU-05, RU-07, RU-08, AZ-06), so no mutation of a registered URI passes (RU-P). The
 * one exception is RFC 8252 §7.3's: a public client's loopback IP URL matches with any port
 * (PC-06). The value sent, port included, is what the code is bound to (RU-12). Only after this
 * may an error be sent to it (RU-10, RU-11).
 */
export function checkRedirectUri(client: Client, { params, duplicates }: AssembledParams): string {
  // AZ-07: two values are refused even when both are the registered one: which would be verified?
  if (duplicates.has('redirect_uri')) {
    throw new InvalidAuthorizationRequest('The redirect_uri parameter was sent more than once.');
  }
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined)
    throw new InvalidAuthorizationRequest('The request is missing the redirect_uri parameter.');
  // The same code units, nothing normalised (CE-03). The list is read on every request, so a URL
  // fixed by Edit client works at once (CE-14).
  if (!redirectUriMatches(client, redirectUri)) {
    throw new InvalidAuthorizationRequest(
      'The redirect_uri does not match any redirect URL registered for this application.',
    );
  }
  return redirectUri;
}
