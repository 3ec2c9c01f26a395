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
import { issueTokens } from './token.handler.ts';
import { TOKEN_PARAMS } from './token.schema.ts';

export const TOKEN_PATH = '/oauth/token';

/** POST /oauth/token (RFC 6749 §3.2), checks in the order they run. */
export function tokenRouter(deps: AuthDeps, limits: ClientAuthRateLimits): Router {
  const router = Router();
  router
    .route(TOKEN_PATH)
    .post(
      noStore, // P-04: success and error alike
      limits.byAddress, // CA-07: failed client authentications per address
      requireFormBody, // TK-01, TK-02
      parseFormBody, // TK-03, TK-05
      assembleParams(TOKEN_PARAMS), // P-01, P-02, TK-06; never the query string (CA-05)
      readClientCredentials, // Basic or body, not both (CA-04, CA-06); Bearer ignored (D-2)
      checkClientCredentials(deps), // CA-01, CA-02, CA-03, TK-09, TK-10, TK-11 (outcome kept)
      limits.byClient, // CA-07: failures per client_id; right credentials always pass (HD-01)
      requireAuthenticatedClient, // invalid_client for the failures, before any code is read (AC-03)
      issueTokens(deps), // grant_type dispatch to core (TK-07, TK-08, AC-*, PK-*, RT-*)
    )
    .all(noStore, methodNotAllowed); // P-03, TK-04
  router.use(TOKEN_PATH, oauthErrorHandler(deps));
  return router;
}
