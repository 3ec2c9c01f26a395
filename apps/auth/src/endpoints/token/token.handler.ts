import type { RequestHandler } from 'express';
import { InvalidRequest, UnsupportedGrantType, type Client } from '@latchkey/core';
import { signingKeysOf, type AuthDeps } from '../../deps.ts';
import { clientOf } from '../oauth-json/client-auth.middleware.ts';
import { paramsOf, type OAuthParams } from '../oauth-json/oauth-params.ts';
import { exchangeAuthorizationCode } from './authorization-code.handler.ts';
import { exchangeDeviceCode } from './device-code.handler.ts';
import { signIdToken } from './id-token.ts';
import { grantFailureOutcome, setGrantOutcome } from './grant-metrics.ts';
import { exchangeRefreshToken } from './refresh-token.handler.ts';
import { presentTokenResponse } from './token-response.presenter.ts';
import { GrantType } from './token.schema.ts';

const grants = {
  [GrantType.authorizationCode]: exchangeAuthorizationCode,
  [GrantType.refreshToken]: exchangeRefreshToken,
  [GrantType.deviceCode]: exchangeDeviceCode,
} as const;

function isSupportedGrant(grantType: string): grantType is keyof typeof grants {
  return Object.hasOwn(grants, grantType);
}

/**
 * Dispatches on `grant_type` (RFC 6749 §5.2: missing is invalid_request, TK-07; unknown is
 * unsupported_grant_type, TK-08). A success is 200 JSON, no-store like every answer of the router
 * (AC-01), with an ID token when the new access token holds `openid` (OI-01, OI-06). The signing
 * keys are loaded before the code or refresh token is consumed (a cached no-op almost always):
 * a database that fails there is a 503 that leaves them usable (D-10), never a 500 after the
 * tokens exist. Its outcome, `ok` or the error's code, is kept for the grant counter (OB-03).
 */
export function issueTokens(deps: AuthDeps): RequestHandler {
  return async (_req, res) => {
    const params = paramsOf(res);
    let response: ReturnType<typeof presentTokenResponse>;
    try {
      response = await grantTokens(deps, params, clientOf(res));
    } catch (err) {
      setGrantOutcome(res, grantFailureOutcome(err));
      throw err;
    }
    setGrantOutcome(res, 'ok');
    res.status(200).json(response);
  };
}

async function grantTokens(deps: AuthDeps, params: OAuthParams, client: Client) {
  const grantType = params.grant_type;
  if (grantType === undefined) throw new InvalidRequest('The grant_type parameter is required.');
  if (!isSupportedGrant(grantType))
    throw new UnsupportedGrantType(`Supported grant types: ${Object.keys(grants).join(', ')}.`);
  await signingKeysOf(deps).ready(client.idTokenAlg);
  const issued = await grants[grantType](deps, client, params);
  const idToken = await signIdToken(deps, client, issued);
  return presentTokenResponse(issued, idToken, deps.config.expiresInAsNumber);
}
