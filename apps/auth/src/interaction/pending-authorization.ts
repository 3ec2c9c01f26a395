import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { Clock } from '@latchkey/core';
import type { Prompt } from '../endpoints/authorize/check-prompt.ts';

/**
 * A verified authorization request waiting for the user to sign in or decide. It lives in
 * the server-side session, never in a user-controlled `return_to` (AZ-20), and forms refer
 * to it by a random id.
 */
export interface PendingAuthorization {
  id: string;
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge?: string;
  prompt?: Prompt;
  createdAt: number;
  /** No session, or prompt=login: credentials must be entered for this request (AZ-30). */
  loginRequired: boolean;
  /** CS-01: the consent form's CSRF token, bound to this request and this session. */
  csrfToken: string;
}

declare module 'express-session' {
  interface SessionData {
    authorizations: Record<string, PendingAuthorization>;
  }
}

/** Long enough to create an account on the way; short enough that stale tabs expire. */
export const PENDING_TTL_MS = 30 * 60 * 1000;
/** Several tabs may each hold a request; the oldest is dropped beyond this. */
const MAX_PENDING = 10;

export interface NewPendingAuthorization {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  prompt: Prompt | undefined;
  loginRequired: boolean;
}

function live(req: Request, clock: Clock): Record<string, PendingAuthorization> {
  const now = clock.now();
  const entries = Object.entries(req.session.authorizations ?? {}).filter(
    ([, p]) => now - p.createdAt < PENDING_TTL_MS,
  );
  return Object.fromEntries(entries.sort(([, a], [, b]) => a.createdAt - b.createdAt).slice(-MAX_PENDING));
}

export function savePendingAuthorization(
  req: Request,
  clock: Clock,
  request: NewPendingAuthorization,
): PendingAuthorization {
  const pending: PendingAuthorization = {
    id: randomBytes(16).toString('base64url'),
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    ...(request.state !== undefined && { state: request.state }),
    ...(request.codeChallenge !== undefined && { codeChallenge: request.codeChallenge }),
    ...(request.prompt !== undefined && { prompt: request.prompt }),
    createdAt: clock.now(),
    loginRequired: request.loginRequired,
    csrfToken: randomBytes(32).toString('base64url'),
  };
  const all = live(req, clock);
  const ids = Object.keys(all);
  if (ids.length >= MAX_PENDING) delete all[ids[0]!];
  all[pending.id] = pending;
  req.session.authorizations = all;
  return pending;
}

/** The pending request `id` names, if it is in this session and not expired. */
export function findPendingAuthorization(req: Request, clock: Clock, id: unknown): PendingAuthorization | undefined {
  if (typeof id !== 'string' || id.length === 0 || !req.session.authorizations) return undefined;
  const pending = Object.hasOwn(req.session.authorizations, id) ? req.session.authorizations[id] : undefined;
  return pending && clock.now() - pending.createdAt < PENDING_TTL_MS ? pending : undefined;
}

export function removePendingAuthorization(req: Request, id: string): void {
  if (!req.session.authorizations || !Object.hasOwn(req.session.authorizations, id)) return;
  const { [id]: _removed, ...rest } = req.session.authorizations;
  if (Object.keys(rest).length === 0) delete req.session.authorizations;
  else req.session.authorizations = rest;
}
