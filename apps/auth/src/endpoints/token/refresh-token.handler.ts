import { refreshTokens, type Client, type TokenPair } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { parseParams, type OAuthParams } from '../oauth-json/oauth-params.ts';
import { refreshTokenParams } from './token.schema.ts';

/**
 * `grant_type=refresh_token` (RFC 6749 §6). Core rotates on every use and, with no grace
 * window (D-4), treats any second use of a refresh token as theft and revokes the family.
 * The request's `Authorization: Bearer` header (ignored, D-2) played no part in getting here.
 */
export async function exchangeRefreshToken(deps: AuthDeps, client: Client, params: OAuthParams): Promise<TokenPair> {
  const input = parseParams(refreshTokenParams, params);
  return refreshTokens(deps.db, deps.clock, deps.config, client, input.refresh_token);
}
