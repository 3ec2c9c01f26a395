import type { Request } from 'express';

// express-session's callbacks as promises, for the authorization server and the portal alike.

/** A new session id, keeping nothing of the old session (session fixation, BF-SF-01). */
export function regenerateSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err: unknown) => (err ? reject(err) : resolve())));
}

/**
 * Writes the session now, so a store failure surfaces as an error (503) instead of
 * express-session's deferred save, which sends the page anyway and forgets the session.
 */
export function saveSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err: unknown) => (err ? reject(err) : resolve())));
}

export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err: unknown) => (err ? reject(err) : resolve())));
}
