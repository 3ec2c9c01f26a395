import { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { clientAuthenticatedEndpoint } from '../oauth-json/client-authenticated.router.ts';
import type { ClientAuthRateLimits } from '../oauth-json/client-auth.rate-limit.ts';
import { countGrants } from './grant-metrics.ts';
import { issueTokens } from './token.handler.ts';
import { TOKEN_PARAMS } from './token.schema.ts';

export const TOKEN_PATH = '/oauth/token';

/**
 * POST /oauth/token (RFC 6749 §3.2): the client-authenticated OAuth JSON endpoint, whose checks
 * run in order: no-store (P-04); CA-07's per-address limit; the form-only body (TK-01, TK-02, TK-03,
 * TK-05) and its parameters, never the query string (P-01, P-02, TK-06, CA-05); Basic or body
 * credentials (CA-04, CA-06; Bearer ignored, D-2) checked (CA-01, CA-02, CA-03, TK-09, TK-10,
 * TK-11); the per-client limit (CA-07, HD-01); `invalid_client` before any code is read (AC-03);
 * then the grant_type dispatch to core (TK-07, TK-08, AC-*, PK-*, RT-*). Other methods: 405 (P-03, TK-04).
 * Every answered POST is counted by grant type and outcome first (OB-03, grant-metrics.ts).
 */
export function tokenRouter(deps: AuthDeps, limits: ClientAuthRateLimits): Router {
  const router = Router();
  router.post(TOKEN_PATH, countGrants(deps.observability!.metrics));
  router.use(
    clientAuthenticatedEndpoint(deps, limits, {
      path: TOKEN_PATH,
      params: TOKEN_PARAMS,
      handler: issueTokens(deps),
    }),
  );
  return router;
}
