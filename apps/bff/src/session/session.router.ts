import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '@latchkey/logging';
import { MethodNotAllowed } from '../http/bff.errors.ts';
import type { PortalOidcClient } from '../oidc/oidc-client.ts';
import { destroySession, type PortalSessions } from './portal-session.ts';
import { signInOf, type SessionTokens } from './session-tokens.ts';

export interface SessionRouterDeps {
  logger: Logger;
  sessions: PortalSessions;
  tokens: SessionTokens;
  client: PortalOidcClient;
  /** CSRF and provenance checks (http/portal-request.middleware.ts). */
  portalRequest: RequestHandler[];
}

function allowOnly(allow: string): RequestHandler {
  return () => {
    throw new MethodNotAllowed(allow);
  };
}

/** GET /bff/session: who is signed in, from the session alone (no upstream call). */
function getSession(req: Request, res: Response): void {
  const { user } = signInOf(req);
  res.json({ user: { id: user.id, name: user.name, email: user.email } });
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
    await destroySession(req);
    deps.sessions.clearCookie(res);
    res.status(204).end();
  };
}

export function sessionRouter(deps: SessionRouterDeps): Router {
  const router = Router();
  const { middleware: session } = deps.sessions;
  router.get('/bff/session', ...deps.portalRequest, session, getSession);
  router.all('/bff/session', allowOnly('GET, HEAD'));
  // BF-LO-01: a GET (a link, an <img>) never signs anyone out; no session is even loaded.
  router.post('/bff/logout', ...deps.portalRequest, session, signOut(deps));
  router.all('/bff/logout', allowOnly('POST'));
  return router;
}
