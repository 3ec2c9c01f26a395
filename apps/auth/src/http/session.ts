import type { RequestHandler } from 'express';
import session from 'express-session';
import type { AuthDeps } from '../deps.ts';
import { DependencyUnavailableError } from '@latchkey/http';
import { KyselySessionStore, RedisSessionStore, requireLoadedSession } from '@latchkey/sessions';

declare module 'express-session' {
  interface SessionData {
    /** Set only by a successful sign-in or sign-up, always on a freshly regenerated id. */
    userId: string;
    authenticatedAt: number;
    /**
     * SHA-256 digests of the codes this sign-in issued to first-party clients (the portal):
     * signing this browser out revokes their grants too (SO-09). Digests only, never codes.
     */
    firstPartyCodes: string[];
  }
}

/** A sign-in lasts at most this long; consent and the code need a live session only briefly. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * DD-9: browsers share one cookie jar across ports on localhost, so this server's
 * cookie name is its own. Over https it gets the `__Host-` prefix (Secure, Path=/, no Domain).
 */
export function sessionCookieName(authUrl: string): string {
  return authUrl.startsWith('https://') ? '__Host-lk_auth_sid' : 'lk_auth_sid';
}

/** Redis keys of this server's sessions; the portal's have their own prefix. */
export const REDIS_SESSION_PREFIX = 'lk:auth:sess:';

function sessionStore(deps: AuthDeps): session.Store {
  if (deps.redis) {
    // A sign-in has a fixed lifetime (rolling: false): nothing to extend on each request.
    return new RedisSessionStore(deps.redis, { prefix: REDIS_SESSION_PREFIX, ttlMs: SESSION_TTL_MS, touch: false });
  }
  return new KyselySessionStore(deps.db, deps.clock, SESSION_TTL_MS);
}

/**
 * Server-side sessions, in Redis when REDIS_URL is set, in the database otherwise (DD-7).
 * SameSite=Lax, not Strict: the sign-in and consent pages are reached by a top-level
 * navigation from the client's site, which must carry the cookie. Nothing is stored until a
 * page puts something in the session.
 *
 * While the store reports itself disconnected, express-session calls next() without setting
 * req.session; that is answered 503 here (D-10), never read as "not signed in", which would
 * show the sign-in page, whose submit needs the same store (BF-RD-01).
 */
export function sessionMiddleware(deps: AuthDeps): RequestHandler {
  const https = deps.config.auth.url.startsWith('https://');
  const load = session({
    name: sessionCookieName(deps.config.auth.url),
    secret: deps.config.sessionSecret,
    store: sessionStore(deps),
    resave: false,
    saveUninitialized: false,
    rolling: false,
    unset: 'destroy',
    cookie: { httpOnly: true, sameSite: 'lax', secure: https, path: '/', maxAge: SESSION_TTL_MS },
  });
  return requireLoadedSession(
    load,
    () => new DependencyUnavailableError(deps.redis ? 'redis' : 'database', 'The session store is unavailable.'),
  );
}
