import { Router, type RequestHandler } from 'express';
import type { Config } from '@latchkey/config';
import { MethodNotAllowed } from '../http/bff.errors.ts';
import { requireSignIn, type SessionTokens } from '../session/session-tokens.ts';
import { forwardTo, rawBody } from './forward.handler.ts';
import type { CallUpstream } from './upstream.ts';

export interface GraphqlProxyDeps {
  config: Config;
  tokens: SessionTokens;
  upstream: CallUpstream;
  session: RequestHandler;
  portalRequest: RequestHandler[];
}

/**
 * POST /bff/graphql → `<API_URL>/graphql` with the session's access token: the Explorer
 * runs queries without ever holding a token (DESIGN.md D9). Exactly this path:
 * `/bff/graphql/../admin` and friends match nothing and are 404 (BF-PX-01).
 */
export function graphqlProxyRouter(deps: GraphqlProxyDeps): Router {
  const router = Router();
  const target = `${deps.config.api.url}/graphql`;
  router.post(
    '/bff/graphql',
    ...deps.portalRequest,
    deps.session,
    requireSignIn,
    rawBody,
    forwardTo(deps.tokens, deps.upstream, 'API', () => target),
  );
  router.all('/bff/graphql', () => {
    throw new MethodNotAllowed('POST');
  });
  return router;
}
