import { parseScope, type Scope } from '@latchkey/contracts';
import { InvalidScope, refreshTokens, type Client } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { parseParams, type OAuthParams } from '../oauth-json/oauth-params.ts';
import type { IssuedTokens } from './id-token.ts';
import { requestedAudience } from './requested-audience.ts';
import { refreshTokenParams } from './token.schema.ts';

/**
 * `grant_type=refresh_token` (RFC 6749 §6). Core rotates on every use and treats a second use of
 * a refresh token (beyond DD-4's grace window) as theft and revokes the family. A public client
 * gets no exception (PC-12): with no secret, rotation is what RFC 9700 §4.14.2 requires of its
 * refresh tokens. The request's `Authorization: Bearer` header (ignored, D-2) played no part in
 * getting here. A `scope` narrows the new access token; core refuses one wider than the grant (SC-04).
 * OI-06: while the new access token holds `openid`, a new ID token comes with it (token.handler.ts).
 * RS-05: a `resource` must name the grant's resource server (core checks it before consuming).
 */
export async function exchangeRefreshToken(deps: AuthDeps, client: Client, params: OAuthParams): Promise<IssuedTokens> {
  const input = parseParams(refreshTokenParams, params);
  const scopes = input.scope === undefined ? undefined : requestedScopes(input.scope);
  const audience = await requestedAudience(deps, input.resource);
  return refreshTokens(deps.db, deps.clock, deps.config, client, input.refresh_token, scopes, audience);
}

/**
 * SC-04: an unknown or reserved name is `invalid_scope` before the refresh token is even looked
 * up, so nothing is consumed. The description never repeats the input (AC-10).
 */
function requestedScopes(scope: string): Scope[] {
  const parsed = parseScope(scope);
  if (!parsed.ok) throw new InvalidScope('The scope parameter names a scope that does not exist.');
  return parsed.scopes;
}
