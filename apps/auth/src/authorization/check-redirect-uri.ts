import type { Client } from '@latchkey/core';
import type { AssembledParams } from './authorize-params.ts';
import { InvalidAuthorizationRequest } from './authorize.errors.ts';

/**
 * Step 2: `redirect_uri` is required (the documented interface; AZ-05) and must equal one of the
 * registered values character for character (RFC 9700 §2.1 "exact string matching"): no
 * normalisation of case, default port, trailing slash, percent-encoding or query (RU-02..RU-08).
 * Only after this may an error be sent to it (RU-10, RU-11).
 */
export function checkRedirectUri(client: Client, { params, duplicates }: AssembledParams): string {
  if (duplicates.has('redirect_uri')) {
    throw new InvalidAuthorizationRequest('The redirect_uri parameter was sent more than once.');
  }
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined)
    throw new InvalidAuthorizationRequest('The request is missing the redirect_uri parameter.');
  // Array.includes compares with ===: the same code units, nothing normalised (CE-03).
  if (!client.redirectUris.includes(redirectUri)) {
    throw new InvalidAuthorizationRequest(
      'The redirect_uri does not match any redirect URL registered for this application.',
    );
  }
  return redirectUri;
}
