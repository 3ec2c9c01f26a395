import type { Request, Response } from 'express';
import type { User } from '@latchkey/core';
import { sameOriginPath } from '@latchkey/http';
import type { AuthDeps } from '../deps.ts';
import { rememberDevice } from '../http/device-cookie.ts';
import { findPendingAuthorization } from '../authorization/pending-authorization.ts';
import { establishSession } from './establish-session.ts';
import { continuePath } from './interaction-links.ts';

/** The end of a sign-in or a sign-up, once `user` is known: the browser is signed in and sent on. */
export async function completeSignIn(
  deps: AuthDeps,
  req: Request,
  res: Response,
  user: User,
  form: { request?: string | undefined; return_to?: string | undefined },
): Promise<void> {
  const pending = findPendingAuthorization(deps, req, form.request);
  await establishSession(req, deps.clock, user, pending);
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
