import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createObservability, traceQueries } from '@latchkey/observability';
import {
  assignRequestId,
  healthEndpoints,
  noStore,
  parseTrustProxy,
  observeRequests,
  withRequestIds,
  type Middleware,
} from '@latchkey/http';
import type { BffDeps } from './deps.ts';
import { errorHandler, errorResponder, notFound } from './http/error-handler.ts';
import { requireJsonIfBody, requirePortalRequest } from './http/portal-request.middleware.ts';
import { securityHeaders } from './http/security-headers.ts';
import { loginTransactions } from './oidc/login-transaction.ts';
import { createOidcClient } from './oidc/oidc-client.ts';
import { oidcRouter } from './oidc/oidc.router.ts';
import { accountProxyRouter } from './proxy/account-proxy.router.ts';
import { graphqlFastPath, takesFastPath } from './proxy/graphql-fast-path.ts';
import { graphqlProxyRouter, graphqlUpstreamUrl } from './proxy/graphql-proxy.router.ts';
import { createUpstream } from './proxy/upstream.ts';
import { isHttps, portalSessions } from './session/portal-session.ts';
import { sessionTokens } from './session/session-tokens.ts';
import { sessionRouter } from './session/session.router.ts';
import { createTokenSealer } from './session/token-sealing.ts';
import { spaRouter } from './spa/spa.router.ts';

/** apps/portal/dist, where `vite build` puts the SPA. */
export const DEFAULT_PORTAL_DIST = fileURLToPath(new URL('../../portal/dist', import.meta.url));

/**
 * Builds the portal's backend-for-frontend (DD-9): the SPA's only server. It signs
 * users in as a confidential OAuth client, keeps their tokens in a server-side session,
 * proxies the account endpoints and /graphql with those tokens, and serves the built SPA.
 * The Express app serves everything; the one hot path, POST /bff/graphql, is answered ahead
 * of it on plain node:http through the same checks and proxy (proxy/graphql-fast-path.ts).
 * Does no I/O; main.ts and tests listen on the returned request listener.
 */
export function createBffApp(given: BffDeps): RequestListener {
  const observability = given.observability ?? createObservability();
  // Every line logged while a request is answered names its X-Request-Id.
  const deps: BffDeps = {
    ...given,
    logger: withRequestIds(given.logger),
    observability,
    // OB-16: a span per query while tracing is on; the database itself when it is off.
    db: traceQueries(given.db, observability.tracing, given.config.databaseUrl ? 'postgresql' : 'sqlite'),
  };
  const { config, db, clock, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Behind a TLS-terminating proxy, req.secure (and so the Secure session cookie) and req.ip
  // come from X-Forwarded-* only when the proxy is trusted (BF-CK-02).
  app.set('trust proxy', parseTrustProxy(config.trustProxy));

  const portalOrigin = new URL(config.portal.url).origin;
  const sealer = createTokenSealer(config.sessionSecret);
  const sessions = portalSessions(config, db, clock, deps.redis);
  const client = createOidcClient(deps);
  const upstream = createUpstream(deps);
  const tokens = sessionTokens({ clock, logger, store: sessions.store, sealer, client });
  const transactions = loginTransactions(config, db, clock);
  const portalRequest = [requirePortalRequest(portalOrigin), requireJsonIfBody];
  const session = sessions.middleware;
  const observeRequest = observeRequests({ logger, observability: deps.observability!, server: 'bff' });
  const headers = securityHeaders({ https: isHttps(config) });
  const respond = errorResponder(logger, sessions.clearCookie);

  app.use(observeRequest);
  app.use(headers);
  // Probes first: no session loaded or created, no rate limit.
  app.use(healthEndpoints(deps));
  app.use('/bff', noStore);
  app.use(oidcRouter({ config, clock, logger, client, transactions, tokens, upstream, session, portalOrigin }));
  const signedOutUrl = config.portal.postLogoutRedirectUri;
  // RS-22: the MCP endpoint the Explorer tells people to paste into an MCP client.
  const mcpUrl = `${config.api.url}/mcp`;
  app.use(sessionRouter({ logger, sessions, tokens, client, portalRequest, signedOutUrl, mcpUrl }));
  app.use(accountProxyRouter({ config, tokens, upstream, session, portalRequest }));
  app.use(graphqlProxyRouter({ config, tokens, upstream, session, portalRequest }));
  app.use('/bff', notFound);
  app.use(spaRouter(deps.portalDist ?? DEFAULT_PORTAL_DIST));
  app.use(notFound);
  app.use(errorHandler(respond, logger));

  const prelude: Middleware[] = [observeRequest, headers, noStore];
  const graphql = graphqlFastPath({
    logger,
    target: graphqlUpstreamUrl(config),
    portalOrigin,
    sessions,
    tokens,
    upstream,
    prelude,
    respond,
  });
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (takesFastPath(req)) graphql(req, res);
    else app(req, res);
  };
  return (req, res) => assignRequestId(req, res, () => route(req, res));
}
