import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@latchkey/logging';
import type { Observability, ServerName } from '@latchkey/observability';
import { isProbe } from './health.ts';
import { requestIdOf } from './request-id.ts';

const ROUTE = Symbol('latchkey.route');

type WithRoute = IncomingMessage & {
  [ROUTE]?: string;
  // Express's, when the request matched a route of an Express app.
  route?: { path?: unknown };
  baseUrl?: string;
};

/**
 * OB-*: names the route template a request matched, for the `route` label and the span name.
 * Plain node:http code (the API) calls it; Express apps get theirs from the matched route.
 */
export function setRouteTemplate(req: IncomingMessage, template: string): void {
  (req as WithRoute)[ROUTE] = template;
}

/**
 * The template, never the path itself (it may carry an id): what setRouteTemplate named, else
 * Express's matched route under its router's mount path, else `unmatched`.
 */
export function routeTemplateOf(req: IncomingMessage): string {
  const r = req as WithRoute;
  const named = r[ROUTE];
  if (named !== undefined) return named;
  const path = r.route?.path;
  if (typeof path === 'string') {
    const base = r.baseUrl ?? '';
    return base !== '' && path === '/' ? base : `${base}${path}`;
  }
  return 'unmatched';
}

export interface ObserveRequestsOptions {
  logger: Logger;
  observability: Observability;
  server: ServerName;
}

/**
 * One line per request (its id, method, path, status and duration), its latency in the
 * request histogram and its span (OB-*). The query string is cut off (it carries `state`,
 * `code_challenge` and, on a callback, the authorization code) and headers and bodies are never
 * logged (RF-04). Health probes, which a load balancer sends every few seconds, are logged at
 * debug. Plain node:http, so the Express apps, the API and the BFF's /bff/graphql fast path
 * write the same line. Runs after assignRequestId.
 */
export function observeRequests({ logger, observability, server }: ObserveRequestsOptions) {
  const { tracing, metrics } = observability;
  const logging = logger.isLevelEnabled('info');
  return function observeRequest(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const started = performance.now();
    // Read now: Express rewrites req.url inside a mounted router.
    const url = req.url ?? '/';
    let span: ReturnType<typeof tracing.startRequest> | undefined;
    res.once('close', () => {
      const durationMs = performance.now() - started;
      const route = routeTemplateOf(req);
      const finished = res.writableFinished;
      const status = finished ? res.statusCode : undefined;
      metrics.httpRequestDuration.observe(
        { server, method: req.method ?? 'GET', route, status: status === undefined ? 'aborted' : String(status) },
        durationMs / 1000,
      );
      span?.end(status, route);
      if (!logging) return;
      const path = url.split('?', 1)[0]!.slice(0, 512);
      const requestId = requestIdOf(req);
      if (!finished) {
        logger.info({ requestId, method: req.method, path, aborted: true }, 'request');
        return;
      }
      logger[isProbe(path) ? 'debug' : 'info'](
        { requestId, method: req.method, path, status, durationMs: Math.round(durationMs * 10) / 10 },
        'request',
      );
    });
    if (tracing.enabled) span = tracing.startRequest(req, server, next);
    else next();
  };
}
