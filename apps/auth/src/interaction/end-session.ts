import type { Request, Response } from 'express';
import { findUserById, inTransaction, recordActorEvent, revokeGrantsOfCodes } from '@latchkey/core';
import type { AuthDeps } from '../deps.ts';
import { destroySession } from '@latchkey/sessions';
import { sessionCookieName } from '../http/session.ts';
import { visitorCookieName } from '../http/visitor.ts';
import { originOf } from '../http/request-origin.ts';

/**
 * Ends this browser's sign-in at the authorization server: the grants this session gave the
 * portal (first-party) are revoked, so a portal session started from it ends too (SO-09); the
 * session is deleted from its store (so a copy of the cookie is worth nothing) and the cookie
 * is cleared with the attributes it was set with. The next /oauth/authorize of any client
 * asks for the password. The visitor cookie goes too: a request sealed to it before the
 * sign-in would otherwise open again for the next person at this browser (HD-06). Third-party apps keep their tokens: signing out of Latchkey is not
 * revoking an app's access (that is the API tokens page's Revoke).
 * AU-10: a signed-in browser's sign-out (Sign out, the end-session endpoint, Switch account) is
 * `sign_out` in the user's log, from this request, in the transaction that revokes the portal's
 * grants (AU-02); the session is deleted once it commits.
 */
export async function endBrowserSession(deps: AuthDeps, req: Request, res: Response): Promise<void> {
  const codes = req.session.firstPartyCodes ?? [];
  const userId = req.session.userId;
  if (codes.length > 0 || userId !== undefined) {
    await inTransaction(deps.db, async (trx) => {
      if (codes.length > 0) await revokeGrantsOfCodes(trx, deps.clock, codes);
      // A deleted user's session signs out too, with no log left to write to.
      if (userId !== undefined && (await findUserById(trx, userId))) {
        const actor = { kind: 'user', userId, origin: originOf(req) } as const;
        await recordActorEvent(trx, actor, { userId, type: 'sign_out', at: deps.clock.now() });
      }
    });
  }
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
