import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import { isAllowedCorsOrigin } from '@latchkey/core';
import type { Executor } from '@latchkey/db';
import type { Middleware } from './middleware.ts';

/**
 * How long a browser may reuse a preflight's answer: 2 hours, the most Chromium keeps one
 * (Firefox keeps up to 24 hours, WebKit 10 minutes). Every `/graphql` call of a browser app is
 * preflighted (it sends Authorization), so a long cache saves a round trip per call. Revocation
 * does not wait for it: the answer itself carries Access-Control-Allow-Origin only while the
 * origin is allowed (PC-09), so a browser still holding an old preflight cannot read anything.
 */
export const CORS_MAX_AGE_SECONDS = 7200;

/**
 * What a browser app may read beyond the safelisted headers: the RFC 6750 challenge
 * (`invalid_token`, `insufficient_scope` and the scope it lacks), when to retry after a 503
 * (D-10), and the request id to quote when reporting a failure.
 */
const EXPOSED_HEADERS = ['WWW-Authenticate', 'Retry-After', 'X-Request-Id'];

export interface CorsEndpoint {
  /** The methods the endpoint takes. */
  methods: readonly string[];
  /** The request headers a browser app may send beyond the safelisted ones. */
  allowedHeaders: readonly string[];
  /** Response headers it may read beyond the challenge, Retry-After and the request id. */
  exposedHeaders?: readonly string[];
}

/**
 * PC-07: CORS for a browser app's endpoint, with expressjs/cors (pinned) writing the headers:
 * Access-Control-Allow-Origin is the request's own origin, never `*`, and only when it is the
 * exact origin of a redirect URL of an active client, read from the database on every request
 * so a revoked client's origins stop at once (PC-09, isAllowedCorsOrigin). Credentials are
 * never allowed: these endpoints take tokens in the Authorization header, not cookies.
 *
 * The wrapper adds what the library leaves to its caller:
 * - a request without Origin (a server, curl, a same-origin page) makes no lookup and goes on;
 * - `Vary: Origin` on every answer, with or without Origin: the metadata is publicly cacheable,
 *   and a cache must not hand one origin's answer to another;
 * - a preflight from any other origin is answered here (PC-08): 204, no Access-Control-* header.
 *   The library would pass it on to the endpoint (a 405 or a 401). 204 rather than 403: the
 *   browser refuses either, and its console then names the actual cause, the missing
 *   Access-Control-Allow-Origin, rather than a failed status;
 * - the lookup failing (the database is down) is passed on as the error it is, which the app
 *   answers 503 with Retry-After (D-10), never as "not allowed".
 *
 * Plain node:http, so the Express app and the API's handler run the same function.
 */
export function corsForBrowserApps(db: Executor, endpoint: CorsEndpoint): Middleware {
  const writeCorsHeaders = cors({
    origin: (origin, callback) => {
      isAllowedCorsOrigin(db, origin ?? '').then(
        (allowed) => callback(null, allowed),
        (err: unknown) => callback(err as Error),
      );
    },
    methods: [...endpoint.methods],
    allowedHeaders: [...endpoint.allowedHeaders],
    exposedHeaders: [...EXPOSED_HEADERS, ...(endpoint.exposedHeaders ?? [])],
    maxAge: CORS_MAX_AGE_SECONDS,
    credentials: false,
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    res.setHeader('Vary', 'Origin');
    if (req.headers.origin === undefined) {
      next();
      return;
    }
    // The library answers an allowed origin's preflight itself and calls back for everything
    // else: an actual request (with its headers set when allowed), or a refused origin.
    writeCorsHeaders(req, res, (err?: unknown) => {
      if (err) next(err);
      else if (req.method === 'OPTIONS') refusePreflight(res);
      else next();
    });
  };
}

function refusePreflight(res: ServerResponse): void {
  res.statusCode = 204;
  res.setHeader('Content-Length', '0');
  res.end();
}
