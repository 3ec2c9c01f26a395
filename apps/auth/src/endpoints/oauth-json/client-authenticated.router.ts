import { Router, type RequestHandler } from 'express';
import { noStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { checkClientCredentials, requireAuthenticatedClient } from './client-auth.middleware.ts';
import type { ClientAuthRateLimits } from './client-auth.rate-limit.ts';
import { readClientCredentials } from './client-credentials.ts';
import { parseFormBody, requireFormBody } from './form-body.parser.ts';
import { methodNotAllowed } from './method-not-allowed.ts';
import { oauthErrorHandler } from './oauth-error.handler.ts';
import { assembleParams } from './oauth-params.ts';

export interface ClientAuthenticatedEndpoint {
  path: string;
  /** The form parameters it reads; anything else is ignored (P-01). */
  params: readonly string[];
  /** Steps between reading the credentials and checking them (introspection refuses a public client there). */
  beforeClientCheck?: RequestHandler[];
  /** What it does once the client is authenticated. */
  handler: RequestHandler;
}

/**
 * A POST endpoint of the OAuth JSON family that authenticates its client: the token, revocation
 * and introspection endpoints. Checks in the order they run: no-store on every answer (P-04);
 * failed client authentications per address (CA-07); a url-encoded form body only (TK-01, TK-02,
 * TK-03, TK-05) and its allowlisted parameters, never the query string (P-01, P-02, TK-06, CA-05);
 * Basic or body credentials, not both (CA-04, CA-06), Bearer ignored (D-2); the credentials
 * checked with the outcome kept (CA-01, CA-02, CA-03, TK-09, TK-10, TK-11); failures per client_id,
 * where right credentials always pass (HD-01); `invalid_client` for the failures before anything
 * is read (AC-03); then the endpoint's own step. Other methods are 405 (P-03, TK-04), and every
 * error is the RFC 6749 §5.2 JSON.
 */
export function clientAuthenticatedEndpoint(
  deps: AuthDeps,
  limits: ClientAuthRateLimits,
  endpoint: ClientAuthenticatedEndpoint,
): Router {
  const router = Router();
  router
    .route(endpoint.path)
    .post(
      noStore,
      limits.byAddress,
      requireFormBody,
      parseFormBody,
      assembleParams(endpoint.params),
      readClientCredentials,
      ...(endpoint.beforeClientCheck ?? []),
      checkClientCredentials(deps),
      limits.byClient,
      requireAuthenticatedClient,
      endpoint.handler,
    )
    .all(noStore, methodNotAllowed);
  router.use(endpoint.path, oauthErrorHandler(deps));
  return router;
}
