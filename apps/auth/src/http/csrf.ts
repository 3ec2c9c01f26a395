import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { constantTimeEqual } from '@latchkey/credentials';
import type { AuthDeps } from '../deps.ts';
import { CsrfRejected } from './page-error.ts';
import { ensureVisitorNonce, visitorCsrfToken, visitorNonce } from './visitor.ts';

declare module 'express-session' {
  interface SessionData {
    /** Synchronizer token for a signed-in session's forms (sign-out, re-authentication). */
    csrfToken: string;
  }
}

export const CSRF_FIELD = 'csrf_token';

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The token for a form on this page. A signed-in session has its own, kept in the session; a
 * visitor's is signed from its `lk_auth_form` cookie and stores nothing (HD-06), so rendering
 * the sign-in or sign-up page never starts a session.
 */
export function csrfTokenFor(deps: AuthDeps, req: Request, res: Response): string {
  if (req.session.csrfToken !== undefined) return req.session.csrfToken;
  if (req.session.userId !== undefined) {
    req.session.csrfToken = newCsrfToken();
    return req.session.csrfToken;
  }
  return visitorCsrfToken(deps, ensureVisitorNonce(deps, req, res));
}

/** Throws CsrfRejected (403) unless `presented` equals `expected`, compared in constant time. */
export function assertCsrfToken(presented: unknown, expected: string | undefined): void {
  if (typeof presented !== 'string' || presented.length === 0 || expected === undefined) throw new CsrfRejected();
  if (!constantTimeEqual(presented, expected)) throw new CsrfRejected();
}

/**
 * For the forms bound to the browser (not to an authorization request): the session's token,
 * or the one signed from the visitor cookie. A form rendered before a sign-in in another tab
 * still posts; a token from another browser never does.
 */
export function assertFormCsrf(deps: AuthDeps, req: Request): void {
  const presented = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (typeof presented !== 'string' || presented.length === 0) throw new CsrfRejected();
  const sessionToken = req.session.csrfToken;
  if (sessionToken !== undefined && constantTimeEqual(presented, sessionToken)) return;
  const nonce = visitorNonce(deps, req);
  if (nonce !== undefined && constantTimeEqual(presented, visitorCsrfToken(deps, nonce))) return;
  throw new CsrfRejected();
}
