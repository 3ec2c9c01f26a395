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
import { revokeToken } from './revoke.handler.ts';
import { REVOKE_PARAMS } from './revoke.schema.ts';

export const REVOKE_PATH = '/oauth/revoke';

/**
 * POST /oauth/revoke (RFC 7009, D-5), checks in the order they run. Client authentication is
 * the token endpoint's, with the same brute-force allowance (RFC 7009 §2.1, §5).
 */
export function revokeRouter(deps: AuthDeps, limits: ClientAuthRateLimits): Router {
  const router = Router();
  router
    .route(REVOKE_PATH)
    .post(
      noStore,
      limits.byAddress,
      requireFormBody,
      parseFormBody,
      assembleParams(REVOKE_PARAMS),
      readClientCredentials,
      checkClientCredentials(deps),
      limits.byClient,
      requireAuthenticatedClient,
      revokeToken(deps),
    )
    .all(noStore, methodNotAllowed);
  router.use(REVOKE_PATH, oauthErrorHandler(deps));
  return router;
}
