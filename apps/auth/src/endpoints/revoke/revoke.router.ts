import type { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { clientAuthenticatedEndpoint } from '../oauth-json/client-authenticated.router.ts';
import type { ClientAuthRateLimits } from '../oauth-json/client-auth.rate-limit.ts';
import { revokeToken } from './revoke.handler.ts';
import { REVOKE_PARAMS } from './revoke.schema.ts';

export const REVOKE_PATH = '/oauth/revoke';

/**
 * POST /oauth/revoke (RFC 7009, D-5), with the checks of clientAuthenticatedEndpoint: client
 * authentication is the token endpoint's, with the same brute-force allowance (RFC 7009 §2.1, §5).
 */
export function revokeRouter(deps: AuthDeps, limits: ClientAuthRateLimits): Router {
  return clientAuthenticatedEndpoint(deps, limits, {
    path: REVOKE_PATH,
    params: REVOKE_PARAMS,
    handler: revokeToken(deps),
  });
}
