import type { Request, Response } from 'express';
import type { AuthDeps } from '../deps.ts';
import { destroySession, sessionCookieName } from '../http/session.ts';

/**
 * Ends this browser's sign-in at the authorization server: the session is deleted from its
 * store (so a copy of the cookie is worth nothing) and the cookie is cleared with the
 * attributes it was set with. The next /oauth/authorize of any client asks for the password.
 */
export async function endBrowserSession(deps: AuthDeps, req: Request, res: Response): Promise<void> {
  await destroySession(req);
  res.clearCookie(sessionCookieName(deps.config.auth.url), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.auth.url.startsWith('https://'),
  });
}
