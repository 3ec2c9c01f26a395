import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { constantTimeEqual } from '@latchkey/credentials';
import { CsrfRejected } from './page-error.ts';

declare module 'express-session' {
  interface SessionData {
    /** Synchronizer token for the session's forms (sign-in, sign-up, sign-out). */
    csrfToken: string;
  }
}

export const CSRF_FIELD = 'csrf_token';

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session's token, created on first use; rendering a form therefore starts a session. */
export function csrfTokenFor(req: Request): string {
  req.session.csrfToken ??= newCsrfToken();
  return req.session.csrfToken;
}

/** Throws CsrfRejected (403) unless `presented` equals `expected`, compared in constant time. */
export function assertCsrfToken(presented: unknown, expected: string | undefined): void {
  if (typeof presented !== 'string' || presented.length === 0 || expected === undefined) throw new CsrfRejected();
  if (!constantTimeEqual(presented, expected)) throw new CsrfRejected();
}

/** For the forms bound to the session (not to an authorization request). */
export function assertSessionCsrf(req: Request): void {
  const body = req.body as Record<string, unknown> | undefined;
  assertCsrfToken(body?.[CSRF_FIELD], req.session.csrfToken);
}
