import type { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { clientAuthenticatedEndpoint } from '../oauth-json/client-authenticated.router.ts';
import type { ClientAuthRateLimits } from '../oauth-json/client-auth.rate-limit.ts';
import { introspectToken, refuseClientIdAlone } from './introspect.handler.ts';
import { INTROSPECT_PARAMS } from './introspect.schema.ts';

export const INTROSPECT_PATH = '/oauth/introspect';

/**
 * POST /oauth/introspect (RFC 7662, OI-11). Client authentication is the token endpoint's, with
 * the same brute-force allowance, and a public client is refused before it (RFC 7662 §2.1);
 * server to server, so no CORS.
 */
export function introspectRouter(deps: AuthDeps, limits: ClientAuthRateLimits): Router {
  return clientAuthenticatedEndpoint(deps, limits, {
    path: INTROSPECT_PATH,
    params: INTROSPECT_PARAMS,
    beforeClientCheck: [refuseClientIdAlone],
    handler: introspectToken(deps),
  });
}
