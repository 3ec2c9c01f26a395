import type { Request, Response } from 'express';
import { recordActorEvent, type User } from '@latchkey/core';
import { sameOriginPath } from '@latchkey/http';
import { destroySession } from '@latchkey/sessions';
import { originOf } from '../http/request-origin.ts';
import type { AuthDeps } from '../deps.ts';
import { rememberDevice } from '../http/device-cookie.ts';
import { findPendingAuthorization } from '../authorization/pending-authorization.ts';
import { establishSession } from './establish-session.ts';
import { continuePath } from './interaction-links.ts';

/**
 * The end of a sign-in or a sign-up, once `user` is known: the browser is signed in and sent on.
 * AU-10: `sign_in` in the user's log, by the user from this request (a new account's first
 * sign-in too). The session lives in its own store, outside the database's transactions, so the
 * event is written once the session is saved, and a session whose event could not be written is
 * deleted again (AU-02: no sign-in without its event, no event without a sign-in).
 */
export async function completeSignIn(
  deps: AuthDeps,
  req: Request,
  res: Response,
  user: User,
  form: { request?: string | undefined; return_to?: string | undefined },
): Promise<void> {
  const pending = findPendingAuthorization(deps, req, form.request);
  await establishSession(req, deps.clock, user, pending);
  const actor = { kind: 'user', userId: user.id, origin: originOf(req) } as const;
  try {
    await recordActorEvent(deps.db, actor, { userId: user.id, type: 'sign_in', at: deps.clock.now() });
  } catch (err) {
    await destroySession(req);
    throw err;
  }
  // HD-13: this browser may still try this account once failures elsewhere reach the cap.
  rememberDevice(deps, req, res, user.email);
  // OR-01: only a path on this server; a pending authorization resumes by its id (AZ-20).
  res.redirect(
    303,
    form.request !== undefined
      ? continuePath(form.request)
      : (sameOriginPath(form.return_to, deps.config.auth.url) ?? '/'),
  );
}
