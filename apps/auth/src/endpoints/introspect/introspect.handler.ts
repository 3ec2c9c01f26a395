import type { RequestHandler } from 'express';
import { formatScope } from '@latchkey/contracts';
import { introspectAccessToken, InvalidClient, type ActiveToken } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { credentialsOf } from '../oauth-json/client-credentials.ts';
import { paramsOf, parseParams } from '../oauth-json/oauth-params.ts';
import { introspectParams } from './introspect.schema.ts';

/**
 * RFC 7662 §2.1: the endpoint MUST require authorization, against token scanning. A public
 * client's `client_id` is published in its app, so `none` proves nothing here: it is refused
 * as missing authentication (401 invalid_client), before any lookup. Resource servers are
 * confidential clients.
 */
export const refuseClientIdAlone: RequestHandler = (_req, res, next) => {
  if (credentialsOf(res)?.method === 'none') throw new InvalidClient('Client authentication failed.');
  next();
};

const seconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * RFC 7662 §2.2 for an active token; a personal access token has no client_id. RS-10: `aud`
 * (RFC 7662 §2.2, RFC 7519 §4.1.3) is the URI of the resource server the token is for, API_URL
 * for the Latchkey API's: a resource server accepts the token only when it is its own URI.
 */
function presentActive(token: ActiveToken): Record<string, unknown> {
  return {
    active: true,
    scope: formatScope(token.scopes),
    ...(token.clientId === null ? {} : { client_id: token.clientId }),
    sub: token.userId,
    exp: seconds(token.expiresAt),
    iat: seconds(token.issuedAt),
    aud: token.audience,
    token_type: 'Bearer',
  };
}

/**
 * OI-11: any authenticated confidential client may introspect any access token, since a resource
 * server is handed tokens issued to other clients; what it learns is what the token would show it
 * at the API. Revoked, expired, unknown, malformed or of a revoked grant or client: exactly
 * `{"active":false}`, never why (RFC 7662 §2.2).
 */
export function introspectToken(deps: AuthDeps): RequestHandler {
  return async (_req, res) => {
    const { token } = parseParams(introspectParams, paramsOf(res));
    const active = await introspectAccessToken(deps.db, deps.clock, token, deps.config.api.url);
    res.status(200).json(active ? presentActive(active) : { active: false });
  };
}
