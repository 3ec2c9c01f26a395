import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { TOKEN_EXPIRES_AT_HEADER } from '@latchkey/contracts';
import { LastUsedRecorder } from '@latchkey/core';
import {
  assignRequestId,
  classifyError,
  corsForBrowserApps,
  healthEndpoints,
  observeRequests,
  setRouteTemplate,
  withRequestIds,
} from '@latchkey/http';
import { createObservability, traceQueries } from '@latchkey/observability';
import { UNAVAILABLE } from './bearer/authenticate-bearer.ts';
import type { ApiDeps } from './deps.ts';
import { createGraphqlHandler } from './graphql/graphql.handler.ts';
import { graphqlRoute } from './graphql/graphql.router.ts';
import { schema } from './graphql/schema.ts';
import { sendJsonError } from './http/json-response.ts';
import { MCP_PATH, mcpRoute } from './mcp/mcp.router.ts';
import { RESOURCE_METADATA_PATH, resourceMetadataRoute } from './resource-metadata/resource-metadata.route.ts';

export interface ApiApp {
  handler: RequestListener;
  /** Flushes pending last-used times and stops timers. */
  close(): Promise<void>;
}

/**
 * Builds the GraphQL API's request handler on plain node:http, not Express: with a document
 * cache, Express 5 + graphql-http measured about 0.18 of a bare server against about 0.3 for
 * plain node:http (issue 2's figures; bench/ measures this stack). Does no I/O; main.ts and
 * tests listen on it.
 */
export function createApiApp(given: ApiDeps): ApiApp {
  // Every line logged while a request is answered names its X-Request-Id.
  const logger = withRequestIds(given.logger);
  const observability = given.observability ?? createObservability();
  // OB-16: a span per query while tracing is on; the database itself when it is off.
  const db = traceQueries(given.db, observability.tracing, given.config.databaseUrl ? 'postgresql' : 'sqlite');
  const deps: ApiDeps = { ...given, logger, observability, db };
  // Last-used times are kept in memory and written in batches: no database write per call.
  const recorder = new LastUsedRecorder(deps.db, deps.lastUsedFlushMs, (err) =>
    deps.logger.error({ err }, 'could not record when tokens were last used; retrying with the next flush'),
  );
  // One handler, so /graphql and the MCP endpoint's graphql tool share one document cache.
  const graphql = createGraphqlHandler({
    schema,
    logger,
    introspection: deps.config.graphqlIntrospection,
    production: deps.config.env === 'production',
  });
  const route = graphqlRoute({ ...deps, recorder, graphql });
  const observeRequest = observeRequests({ logger, observability, server: 'api' });
  const health = healthEndpoints(deps);
  // PC-07: browser apps on the origin of a registered redirect URL may call /graphql, with the
  // headers GraphQL clients send. Its headers are set before any path answers (the token check,
  // the fast path, graphql-http, an error), and its preflight never reaches the token check.
  const answerGraphql = withCors(
    corsForBrowserApps(deps.db, {
      methods: ['GET', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept'],
      // TR-08: a browser app may read when its token expires.
      exposedHeaders: [TOKEN_EXPIRES_AT_HEADER],
    }),
    route,
  );
  // RS-16: MCP clients send their protocol version and session headers besides the token.
  const answerMcp = withCors(
    corsForBrowserApps(deps.db, {
      methods: ['POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id'],
      exposedHeaders: ['Mcp-Session-Id', TOKEN_EXPIRES_AT_HEADER],
    }),
    mcpRoute({ ...deps, recorder, graphql }),
  );
  // RS-13: a browser-based agent reads the metadata before it has a token.
  const answerResourceMetadata = withCors(
    corsForBrowserApps(deps.db, { methods: ['GET'], allowedHeaders: [] }),
    resourceMetadataRoute(deps),
  );

  /** Answers with `route` behind `cors`; an error it throws is a 503 for an outage (D-10), else a 500. */
  function withCors(
    cors: ReturnType<typeof corsForBrowserApps>,
    route: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  ): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const fail = (err: unknown): void => {
        logger.error({ err, path: req.url }, 'unexpected error answering a request');
        if (res.headersSent) res.destroy();
        // D-10: an outage is a 503 with Retry-After (the token check answers it first); the rest a 500.
        else if (classifyError(err).kind === 'dependency')
          sendJsonError(res, UNAVAILABLE.status, UNAVAILABLE.message, UNAVAILABLE.code, UNAVAILABLE.headers);
        else sendJsonError(res, 500, 'Internal server error', 'INTERNAL_SERVER_ERROR');
      };
      cors(req, res, (err) => {
        if (err) fail(err);
        else route(req, res).catch(fail);
      });
    };
  }

  function answer(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path === '/graphql') {
      setRouteTemplate(req, '/graphql');
      answerGraphql(req, res);
      return;
    }
    if (path === MCP_PATH) {
      setRouteTemplate(req, MCP_PATH);
      answerMcp(req, res);
      return;
    }
    if (path === RESOURCE_METADATA_PATH || path.startsWith(`${RESOURCE_METADATA_PATH}/`)) {
      setRouteTemplate(req, RESOURCE_METADATA_PATH);
      answerResourceMetadata(req, res);
      return;
    }
    // /healthz and /readyz (no token: load balancers probe them); anything else is unknown.
    health(req, res, () => sendJsonError(res, 404, 'Not found', 'NOT_FOUND'));
  }

  const handler: RequestListener = (req, res) => {
    assignRequestId(req, res, () => observeRequest(req, res, () => answer(req, res)));
  };

  return { handler, close: () => recorder.close() };
}
