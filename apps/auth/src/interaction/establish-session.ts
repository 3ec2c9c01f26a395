import type { Request } from 'express';
import type { Clock, User } from '@latchkey/core';
import { newCsrfToken } from '../http/csrf.ts';
import { regenerateSession, saveSession } from '@latchkey/sessions';
import type { PendingAuthorization } from '../authorization/pending-authorization.ts';

/**
 * Signs `user` in on a brand-new session id (session fixation: nothing chosen before sign-in
 * survives, BF-SF-01) with a new CSRF token. Only the authorization request this sign-in was
 * for is carried over, marked as satisfied by these credentials (AZ-30).
 */
export async function establishSession(
  req: Request,
  clock: Clock,
  user: User,
  pending: PendingAuthorization | undefined,
): Promise<void> {
  await regenerateSession(req);
  req.session.userId = user.id;
  req.session.authenticatedAt = clock.now();
  req.session.csrfToken = newCsrfToken();
  if (pending) req.session.authorizations = { [pending.id]: { ...pending, loginRequired: false } };
  await saveSession(req);
}
