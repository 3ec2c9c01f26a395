import type { SessionJson } from '@latchkey/contracts';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '@latchkey/logging';
import { MethodNotAllowed } from '@latchkey/http';
import { redirectTo } from '../http/redirect.ts';
import type { PortalOidcClient } from '../oidc/oidc-client.ts';
import { destroySession } from '@latchkey/sessions';
import type { PortalSessions } from './portal-session.ts';
import { signInOf, type SessionTokens } from './session-tokens.ts';

export interface SessionRouterDeps {
  logger: Logger;
  sessions: PortalSessions;
  tokens: SessionTokens;
  client: PortalOidcClient;
  /** CSRF and provenance checks (http/portal-request.middleware.ts). */
  portalRequest: RequestHandler[];
  /** PORTAL_URL/signed-out: where the browser lands when the end-session URL cannot be built. */
  signedOutUrl: string;
  /** RS-22: the API's MCP endpoint (`{API_URL}/mcp`), which the Explorer shows to paste into an MCP client. */
  mcpUrl: string;
}

function allowOnly(allow: string): RequestHandler {
  return () => {
    throw new MethodNotAllowed(allow);
  };
}

/**
 * GET /bff/session: who is signed in, from the session alone (no upstream call), and what the
 * portal cannot know by itself: the API's MCP URL (RS-22; the SPA is given no API_URL).
 */
function getSession(mcpUrl: string): RequestHandler {
  return (req: Request, res: Response) => {
    const { user } = signInOf(req);
    const answer: SessionJson = { user: { id: user.id, name: user.name, email: user.email }, mcpUrl };
    res.json(answer);
  };
}

/**
 * POST /bff/logout (BF-LO-03): revokes the refresh token at the authorization server, which
 * takes the whole grant with it (RFC 7009, D-5), deletes the session and clears the cookie
 * with the attributes it was set with. Answers 204 even without a session: signing out is
 * idempotent. If the server cannot be reached the session is still deleted, and with it the
 * only copy of the refresh token.
 */
function signOut(deps: SessionRouterDeps): RequestHandler {
  return async (req, res) => {
    const signIn = req.session.portal;
    const tokens = signIn ? deps.tokens.open(signIn.tokens) : undefined;
    if (tokens) {
      await deps.client.revoke(tokens.refreshToken).catch((err: unknown) => {
        deps.logger.warn(
          { reason: err instanceof Error ? err.name : 'unknown' },
          'sign-out could not revoke the grant',
        );
      });
    }
    // BF-SF-02: the id ends with the session, so the next sign-in starts under a new one.
    await destroySession(req);
    deps.sessions.clearCookie(res);
    res.status(204).end();
  };
}

/**
 * GET /bff/end-session (issue 14, SO-06): Sign out's second half, a top-level navigation the
 * SPA makes after POST /bff/logout. The authorization server's own sign-in lives in its own
 * cookie, which only a navigation to it can end: this sends the browser to its end-session
 * endpoint with the portal's client_id and registered post-logout URL, and the server sends
 * it on to /signed-out. A GET that touches no session: a link to it from anywhere can do no
 * more than the end-session endpoint itself allows. If the server's metadata cannot be read
 * (it is down), the browser goes straight to /signed-out; the portal session is gone anyway.
 */
function endSession(deps: SessionRouterDeps): RequestHandler {
  return async (_req, res) => {
    const url = await deps.client.endSessionUrl().catch((err: unknown) => {
      deps.logger.warn(
        { reason: err instanceof Error ? err.name : 'unknown' },
        'sign-out could not reach the end-session endpoint',
      );
      return new URL(deps.signedOutUrl);
    });
    redirectTo(res, url.href);
  };
}

export function sessionRouter(deps: SessionRouterDeps): Router {
  const router = Router();
  const { middleware: session } = deps.sessions;
  router.get('/bff/session', ...deps.portalRequest, session, getSession(deps.mcpUrl));
  router.all('/bff/session', allowOnly('GET, HEAD'));
  // BF-LO-01: a GET (a link, an <img>) never signs anyone out; no session is even loaded.
  router.post('/bff/logout', ...deps.portalRequest, session, signOut(deps));
  router.all('/bff/logout', allowOnly('POST'));
  router.get('/bff/end-session', endSession(deps));
  router.all('/bff/end-session', allowOnly('GET, HEAD'));
  return router;
}
