import { redeemAuthorizationCode, type Client } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { parseParams, type OAuthParams } from '../oauth-json/oauth-params.ts';
import type { IssuedTokens } from './id-token.ts';
import { requestedAudience } from './requested-audience.ts';
import { authorizationCodeParams } from './token.schema.ts';

/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.6). Core owns every rule:
 * binding to client and redirect URI, expiry, single use with family revocation on replay,
 * PKCE and its downgrade check, and `resource` naming the code's resource server (RS-04).
 */
export async function exchangeAuthorizationCode(
  deps: AuthDeps,
  client: Client,
  params: OAuthParams,
): Promise<IssuedTokens> {
  const input = parseParams(authorizationCodeParams, params);
  return redeemAuthorizationCode(deps.db, deps.clock, deps.config, {
    client,
    code: input.code,
    redirectUri: input.redirect_uri,
    codeVerifier: input.code_verifier,
    audience: await requestedAudience(deps, input.resource),
  });
}
