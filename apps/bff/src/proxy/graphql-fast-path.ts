import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@latchkey/logging';
import type { ErrorResponder } from '../http/error-handler.ts';
import { runMiddleware, setRouteTemplate, type Middleware } from '@latchkey/http';
import { checkJsonBody, checkPortalRequest } from '../http/portal-request.middleware.ts';
import type { PortalSessions } from '../session/portal-session.ts';
import { signedIn, type SessionTokens } from '../session/session-tokens.ts';
import { forwardWithSession, relay } from './forward.handler.ts';
import { GRAPHQL_PROXY_PATH } from './graphql-proxy.router.ts';
import { BODY_LIMIT_BYTES, readRequestBody } from './request-body.ts';
import type { CallUpstream } from './upstream.ts';

export interface GraphqlFastPathDeps {
  logger: Logger;
  /** `<API_URL>/graphql`, the one upstream (BF-PX-01). */
  target: string;
  portalOrigin: string;
  sessions: PortalSessions;
  tokens: SessionTokens;
  upstream: CallUpstream;
  /** What every /bff response goes through first in the Express app: log line, security headers, no-store. */
  prelude: readonly Middleware[];
  respond: ErrorResponder;
}

/**
 * The requests the fast path takes: exactly `POST /bff/graphql` (with any query string, which
 * is not forwarded) and a body without Content-Encoding. Everything else, the trailing-slash
 * and other-case spellings Express also routes here, compressed bodies and other methods,
 * goes to the Express app, whose route makes the same checks in the same order.
 */
export function takesFastPath(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.headers['content-encoding'] !== undefined) return false;
  const url = req.url ?? '';
  return (
    url.startsWith(GRAPHQL_PROXY_PATH) &&
    (url.length === GRAPHQL_PROXY_PATH.length || url[GRAPHQL_PROXY_PATH.length] === '?')
  );
}

/**
 * POST /bff/graphql on plain node:http, ahead of Express: the Explorer's hot path, where
 * Express's routing, express-session and body-parser cost several times the API's own work
 * (issue 3's proxy benchmark). Same steps as the Express route (graphql-proxy.router.ts),
 * through the same functions: the CSRF and provenance checks (BF-CS-*), JSON only, the
 * session read from the store on every request (so a sign-out or revocation counts at once),
 * 401 without a sign-in, the body limit, then the proxy with single-flight refresh and one
 * retry (BF-PX-02), and errors through the app's error responder.
 */
export function graphqlFastPath(deps: GraphqlFastPathDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { sessions, tokens, upstream, target, portalOrigin } = deps;

  async function proxy(req: IncomingMessage, res: ServerResponse): Promise<void> {
    checkPortalRequest(req, portalOrigin);
    checkJsonBody(req);
    const session = signedIn(await sessions.load(req));
    const body = await readRequestBody(req, BODY_LIMIT_BYTES);
    const answer = await forwardWithSession(tokens, upstream, session, {
      url: target,
      method: 'POST',
      upstream: 'API',
      headers: req.headers,
      body,
    });
    relay(res, answer);
  }

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    if (res.headersSent) {
      deps.logger.error({ err, method: req.method, path: GRAPHQL_PROXY_PATH }, 'error after the response started');
      res.destroy();
      return;
    }
    deps.respond(req, res, err);
  }

  return (req, res) => {
    // OB-01: its requests are counted under the Express route's template, not as `unmatched`.
    setRouteTemplate(req, GRAPHQL_PROXY_PATH);
    runMiddleware(deps.prelude, req, res, (err) => {
      if (err !== undefined) fail(req, res, err);
      else proxy(req, res).catch((thrown: unknown) => fail(req, res, thrown));
    });
  };
}
