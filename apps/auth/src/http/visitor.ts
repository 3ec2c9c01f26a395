import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { parse, serialize } from 'cookie';
import { createSealer, type Sealer } from '@latchkey/credentials';
import type { AuthDeps } from '../deps.ts';

/**
 * A visitor is a browser that is not signed in. Nothing is stored for it on the server (HD-06):
 * the sign-in and sign-up forms and a pending authorization request are bound instead to a
 * random value in a short cookie, `lk_auth_form`, that the server signs (the forms' CSRF token,
 * OWASP's signed double-submit cookie) and seals into (the pending request, see
 * pending-authorization.ts). A session row appears only when someone signs in.
 *
 * Over https the cookie carries the `__Host-` prefix, so no other host can plant one; on plain
 * http (local development) a sibling host could, which would let it post a sign-in form of its
 * own as the visitor (login CSRF), never read or change an account.
 */
const NONCE = /^[A-Za-z0-9_-]{43}$/;
/** As long as a sign-in may last: a form left open that long still posts. */
const VISITOR_COOKIE_TTL_S = 12 * 60 * 60;

export function visitorCookieName(authUrl: string): string {
  return authUrl.startsWith('https://') ? '__Host-lk_auth_form' : 'lk_auth_form';
}

interface VisitorKeys {
  csrf: Buffer;
  sealer: Sealer;
}

// Derived once per secret (a process has one; tests start several systems).
const keysBySecret = new Map<string, VisitorKeys>();

function keysFor(secret: string): VisitorKeys {
  let keys = keysBySecret.get(secret);
  if (!keys) {
    keys = {
      csrf: createHmac('sha256', secret).update('latchkey-auth visitor csrf v1').digest(),
      sealer: createSealer(secret, {
        salt: 'latchkey-auth',
        info: 'pending authorization request',
        aad: 'latchkey-auth-pending-authorization',
      }),
    };
    keysBySecret.set(secret, keys);
  }
  return keys;
}

/** The visitor's value from its cookie, when the browser sent a well-formed one. */
export function visitorNonce(deps: AuthDeps, req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parse(header)[visitorCookieName(deps.config.auth.url)];
  return value !== undefined && NONCE.test(value) ? value : undefined;
}

/**
 * The visitor's value, set in a new cookie on this response when the browser has none. Like
 * the session cookie, a Secure cookie is withheld from a request that did not arrive over TLS
 * (the form will then be refused, never the cookie sent in the clear).
 */
export function ensureVisitorNonce(deps: AuthDeps, req: Request, res: Response): string {
  const set = res.locals.visitorNonce as string | undefined;
  const existing = set ?? visitorNonce(deps, req);
  if (existing !== undefined) return existing;
  const nonce = randomBytes(32).toString('base64url');
  res.locals.visitorNonce = nonce;
  const secure = deps.config.auth.url.startsWith('https://');
  if (secure && !req.secure) return nonce;
  res.append(
    'Set-Cookie',
    serialize(visitorCookieName(deps.config.auth.url), nonce, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: VISITOR_COOKIE_TTL_S,
    }),
  );
  return nonce;
}

/** The forms' CSRF token for this visitor: its cookie's value signed with the server's secret. */
export function visitorCsrfToken(deps: AuthDeps, nonce: string): string {
  return createHmac('sha256', keysFor(deps.config.sessionSecret).csrf).update(nonce).digest('base64url');
}

/** Seals values that the visitor's browser carries and must give back unread and unchanged. */
export function visitorSealer(deps: AuthDeps): Sealer {
  return keysFor(deps.config.sessionSecret).sealer;
}
