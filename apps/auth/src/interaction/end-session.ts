import type { Request, Response } from 'express';
import { revokeGrantsOfCodes } from '@latchkey/core';
import type { AuthDeps } from '../deps.ts';
import { destroySession } from '@latchkey/sessions';
import { sessionCookieName } from '../http/session.ts';
import { visitorCookieName } from '../http/visitor.ts';

/**
 * Ends this browser's sign-in at the authorization server: the grants this session gave the
 * portal (first-party) are revoked, so a portal session started from it ends too (SO-09); the
 * session is deleted from its store (so a copy of the cookie is worth nothing) and the cookie
 * is cleared with the attributes it was set with. The next /oauth/authorize of any client
 * asks for the password. The visitor cookie goes too: a request sealed to it before the
 * sign-in would otherwise open again for the next person at this browser (HD-06). Third-party apps keep their tokens: signing out of Latchkey is not
 * revoking an app's access (that is the API tokens page's Revoke).
 */
export async function endBrowserSession(deps: AuthDeps, req: Request, res: Response): Promise<void> {
  const codes = req.session.firstPartyCodes;
  if (codes && codes.length > 0) await revokeGrantsOfCodes(deps.db, deps.clock, codes);
  await destroySession(req);
  const attributes = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.auth.url.startsWith('https://'),
  } as const;
  res.clearCookie(sessionCookieName(deps.config.auth.url), attributes);
  res.clearCookie(visitorCookieName(deps.config.auth.url), attributes);
}
