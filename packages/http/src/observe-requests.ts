import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessLogger, type Logger } from '@latchkey/logging';
import type { Observability, ServerName } from '@latchkey/observability';
import { isProbe } from './health.ts';
import { requestIdOf } from './request-id.ts';

const ROUTE = Symbol('latchkey.route');
const SUBJECT = Symbol('latchkey.subject');

/** Who a request acted as, for its access line: ids only, never a credential. */
export interface RequestSubject {
  userId: string;
  /** The access token's id (`tok_…`, `pat_…`), when a bearer token authenticated the request. */
  tokenId?: string;
}

/** A histogram child bound to its labels. */
interface Observer {
  observe(seconds: number): void;
}

type WithRoute = IncomingMessage & {
  [ROUTE]?: string;
  [SUBJECT]?: RequestSubject;
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

/** OB-19: names the user (and token) a request acted as, for its access line. */
export function setRequestSubject(req: IncomingMessage, subject: RequestSubject): void {
  (req as WithRoute)[SUBJECT] = subject;
}

/**
 * OB-01: the template, never the path itself (it may carry an id): what setRouteTemplate named, else
 * Express's matched route under its router's mount path, else `unmatched`.
 */
export function routeTemplateOf(req: IncomingMessage): string {
  const r = req as WithRoute;
  const named = r[ROUTE];
  if (named !== undefined) return named;
  const path = r.route?.path;
  if (typeof path === 'string') {
    const base = r.baseUrl ?? '';
    // An error handler mounted at a path leaves baseUrl at that path; these routers' route paths are already whole.
    if (base === '' || path === base || path.startsWith(`${base}/`)) return path;
    return path === '/' ? base : `${base}${path}`;
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
  // OB-19: the access line skips the redactor: its fields are fixed and never secret.
  const access = accessLogger(logger);
  const logging = access.isLevelEnabled('info');
  // One histogram child per method, route and status, found by a string key: prom-client's own
  // lookup sorts and joins the label names on every observation.
  const series = new Map<string, Observer>();
  const seriesOf = (method: string, route: string, status: string): Observer => {
    const key = `${method} ${status} ${route}`;
    let child = series.get(key);
    if (child === undefined) {
      child = metrics.httpRequestDuration.labels({ server, method, route, status });
      series.set(key, child);
    }
    return child;
  };
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
      seriesOf(req.method ?? 'GET', route, status === undefined ? 'aborted' : String(status)).observe(
        durationMs / 1000,
      );
      span?.end(status, route);
      if (!logging) return;
      const path = url.split('?', 1)[0]!.slice(0, 512);
      const requestId = requestIdOf(req);
      const subject = (req as WithRoute)[SUBJECT];
      if (!finished) {
        access.info({ requestId, method: req.method, path, route, aborted: true, ...subject }, 'request');
        return;
      }
      access[isProbe(path) ? 'debug' : 'info'](
        {
          requestId,
          method: req.method,
          path,
          route,
          status,
          durationMs: Math.round(durationMs * 10) / 10,
          userId: subject?.userId,
          tokenId: subject?.tokenId,
        },
        'request',
      );
    });
    if (tracing.enabled) span = tracing.startRequest(req, server, next, requestIdOf(req));
    else next();
  };
}
