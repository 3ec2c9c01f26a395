import { Router } from 'express';
import { noStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { checkClientCredentials, requireAuthenticatedClient } from '../oauth-json/client-auth.middleware.ts';
import type { ClientAuthRateLimits } from '../oauth-json/client-auth.rate-limit.ts';
import { readClientCredentials } from '../oauth-json/client-credentials.ts';
import { parseFormBody, requireFormBody } from '../oauth-json/form-body.parser.ts';
import { methodNotAllowed } from '../oauth-json/method-not-allowed.ts';
import { oauthErrorHandler } from '../oauth-json/oauth-error.handler.ts';
import { assembleParams } from '../oauth-json/oauth-params.ts';
import { introspectToken, refuseClientIdAlone } from './introspect.handler.ts';
import { INTROSPECT_PARAMS } from './introspect.schema.ts';

export const INTROSPECT_PATH = '/oauth/introspect';

/**
 * POST /oauth/introspect (RFC 7662, OI-11), checks in the order they run. Client authentication
 * is the token endpoint's, with the same brute-force allowance; server to server, so no CORS.
 */
export function introspectRouter(deps: AuthDeps, limits: ClientAuthRateLimits): Router {
  const router = Router();
  router
    .route(INTROSPECT_PATH)
    .post(
      noStore,
      limits.byAddress,
      requireFormBody,
      parseFormBody,
      assembleParams(INTROSPECT_PARAMS),
      readClientCredentials,
      refuseClientIdAlone,
      checkClientCredentials(deps),
      limits.byClient,
      requireAuthenticatedClient,
      introspectToken(deps),
    )
    .all(noStore, methodNotAllowed);
  router.use(INTROSPECT_PATH, oauthErrorHandler(deps));
  return router;
}
