import type { Client, IdTokenHint } from '@latchkey/core';
import { signingKeysOf, type AuthDeps } from '../deps.ts';
import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';
import { VSCHAR } from './check-state.ts';

/** The longest email address the sign-in form takes (its field's maxlength). */
const MAX_LOGIN_HINT_LENGTH = 254;

/**
 * OI-19: `login_hint` (OpenID Connect Core §3.1.2.1) is only a hint: it pre-fills the email of the
 * sign-in page this request shows. One that could not be an email (too long, unprintable) is
 * ignored rather than refused, as the specification allows.
 */
export function checkLoginHint({ params }: AssembledParams): string | undefined {
  const hint = params.login_hint;
  if (hint === undefined || hint.length > MAX_LOGIN_HINT_LENGTH || !VSCHAR.test(hint)) return undefined;
  return hint;
}

/**
 * OI-15: `id_token_hint` must be an ID token this server signed for this client (an expired one
 * included: it names whom the client believes is signed in, it grants nothing); anything else is
 * invalid_request on the redirect, without saying which check failed.
 */
export async function checkIdTokenHint(
  deps: AuthDeps,
  client: Client,
  { params }: AssembledParams,
): Promise<IdTokenHint | undefined> {
  const jwt = params.id_token_hint;
  if (jwt === undefined) return undefined;
  const hint = await signingKeysOf(deps).verifyIdTokenHint(jwt, deps.config.auth.url);
  if (!hint || hint.aud !== client.id) {
    throw invalidRequest('id_token_hint is not an ID token this server issued to this application.');
  }
  return hint;
}
