import { Router, type RequestHandler } from 'express';
import type { Config } from '@latchkey/config';
import { MethodNotAllowed } from '@latchkey/http';
import { requireSignIn, type SessionTokens } from '../session/session-tokens.ts';
import { forwardTo, rawBody } from './forward.handler.ts';
import type { CallUpstream } from './upstream.ts';

export const GRAPHQL_PROXY_PATH = '/bff/graphql';

/** The one upstream of the GraphQL proxy, from configuration only (BF-PX-01). */
export function graphqlUpstreamUrl(config: Config): string {
  return `${config.api.url}/graphql`;
}

export interface GraphqlProxyDeps {
  config: Config;
  tokens: SessionTokens;
  upstream: CallUpstream;
  session: RequestHandler;
  portalRequest: RequestHandler[];
}

/**
 * POST /bff/graphql → `<API_URL>/graphql` with the session's access token: the Explorer
 * runs queries without ever holding a token (DD-9). Exactly this path:
 * `/bff/graphql/../admin` and friends match nothing and are 404 (BF-PX-01). The common case
 * never reaches this router: graphql-fast-path.ts answers it first, through the same checks.
 */
export function graphqlProxyRouter(deps: GraphqlProxyDeps): Router {
  const router = Router();
  const target = graphqlUpstreamUrl(deps.config);
  router.post(
    GRAPHQL_PROXY_PATH,
    ...deps.portalRequest,
    deps.session,
    requireSignIn,
    rawBody,
    forwardTo(deps.tokens, deps.upstream, 'API', () => target),
  );
  router.all(GRAPHQL_PROXY_PATH, () => {
    throw new MethodNotAllowed('POST');
  });
  return router;
}
