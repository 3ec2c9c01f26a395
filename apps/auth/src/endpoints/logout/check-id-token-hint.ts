import type { IdTokenHint } from '@latchkey/core';
import { signingKeysOf, type AuthDeps } from '../../deps.ts';
import { InvalidLogoutRequest } from './invalid-logout-request.ts';
import type { LogoutParams } from './logout-params.ts';

/**
 * OI-18 (OpenID RP-Initiated Logout 1.0 §2, §3): the `id_token_hint` of an end-session request,
 * read before anything else. Absent: undefined. Present, it must be an ID token of this server
 * (a published key's signature, `iss` this issuer; an expired one counts, as the spec asks), else
 * a 400 page and nobody is signed out. A `client_id` sent with it must be its `aud`; without one,
 * the `aud` names the client (its checks, active and registered URL, follow as for a `client_id`).
 */
export async function checkIdTokenHint(
  deps: AuthDeps,
  params: LogoutParams['params'],
): Promise<{ hint: IdTokenHint | undefined; clientId: string | undefined }> {
  const jwt = params.id_token_hint;
  if (jwt === undefined) return { hint: undefined, clientId: params.client_id };
  const hint = await signingKeysOf(deps).verifyIdTokenHint(jwt, deps.config.auth.url);
  if (!hint) throw new InvalidLogoutRequest('The id_token_hint is not an ID token issued by this server.');
  if (params.client_id !== undefined && params.client_id !== hint.aud) {
    throw new InvalidLogoutRequest('The client_id is not the audience of the id_token_hint.');
  }
  return { hint, clientId: hint.aud };
}
