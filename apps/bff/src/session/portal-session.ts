import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serialize } from 'cookie';
import type { RequestHandler } from 'express';
import session from 'express-session';
import type { Clock } from '@latchkey/core';
import type { Config } from '@latchkey/config';
import type { Db } from '@latchkey/db';
import { requireLoadedSession, type RedisClient } from '@latchkey/sessions';
import { SessionStoreUnavailable } from '../http/bff.errors.ts';
import { DatabasePortalSessionStore, type PortalSessionStore } from './portal-session.store.ts';
import { RedisPortalSessionStore } from './redis-portal-session.store.ts';
import { signedSessionId } from './session-cookie.ts';

/** The signed-in user as the SPA sees it (GET /bff/session). */
export interface PortalUser {
  id: string;
  name: string;
  email: string;
}

/** Tokens as stored: both values sealed with AES-GCM (token-sealing.ts), never plaintext. */
export interface SealedTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ms, injected clock), if the server said. */
  expiresAt: number | null;
}

export interface PortalSignIn {
  user: PortalUser;
  tokens: SealedTokens;
  signedInAt: number;
}

declare module 'express-session' {
  interface SessionData {
    /** Set only by a completed sign-in, always on a freshly regenerated id (BF-SF-01). */
    portal: PortalSignIn;
  }
}

/** A sign-in to the portal lasts this long, then the SPA sends the user through sign-in again. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export function isHttps(config: Config): boolean {
  return config.portal.url.startsWith('https://');
}

/**
 * DD-9: browsers share cookies across ports on localhost, so the name is the portal's
 * own; over https it gets the `__Host-` prefix (Secure, Path=/, no Domain: BF-CK-01).
 */
export function sessionCookieName(config: Config): string {
  return isHttps(config) ? '__Host-lk_portal_sid' : 'lk_portal_sid';
}

export function sessionCookieOptions(config: Config) {
  return { httpOnly: true, sameSite: 'strict', secure: isHttps(config), path: '/' } as const;
}

/**
 * The cookie is signed with a key of its own, derived from SESSION_SECRET, so a cookie
 * minted by the authorization server (same secret) is never a valid portal cookie.
 */
function cookieSigningSecret(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('latchkey portal session cookie').digest('base64url');
}

/** A session read from the store for one request: its id (no key prefix) and its data. */
export interface LoadedSession {
  id: string;
  data: session.SessionData;
}

export interface PortalSessions {
  /** express-session over the store, for the Express routes; 503 when the store is down. */
  middleware: RequestHandler;
  store: PortalSessionStore;
  /**
   * The session a request's cookie names, read from the store now, without express-session
   * (the /bff/graphql fast path): the same cookie, key and store, so the same answer. Nothing
   * is cached: a sign-out or a revocation shows on the very next request.
   */
  load(req: IncomingMessage): Promise<LoadedSession | undefined>;
  clearCookie(res: ServerResponse): void;
}

/**
 * Server-side sessions, in Redis when REDIS_URL is set (shared by every BFF instance), in the
 * database otherwise; the cookie holds only a signed random id (BBA "Cookie Security").
 * SameSite=Strict: nothing cross-site ever needs the session; the return from the
 * authorization server relies on the separate Lax transaction cookie (BF-CK-01). Nothing is
 * stored before sign-in.
 */
export function portalSessions(config: Config, db: Db, clock: Clock, redis?: RedisClient): PortalSessions {
  const store: PortalSessionStore = redis
    ? new RedisPortalSessionStore(redis, SESSION_TTL_MS)
    : new DatabasePortalSessionStore(db, clock, SESSION_TTL_MS);
  const name = sessionCookieName(config);
  const cookie = sessionCookieOptions(config);
  const secret = cookieSigningSecret(config.sessionSecret);
  const middleware = session({
    name,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    cookie: { ...cookie, maxAge: SESSION_TTL_MS },
  });
  return {
    // BF-RD-01: no session loaded because the store is down is a 503, never a 401.
    middleware: requireLoadedSession(
      middleware,
      () => new SessionStoreUnavailable('The portal is temporarily unavailable. Try again in a few seconds.'),
    ),
    store,
    async load(req) {
      const id = signedSessionId(req.headers.cookie, name, secret);
      if (id === undefined) return undefined;
      const data = await store.readSession(id);
      return data ? { id, data } : undefined;
    },
    // BF-LO-03: the same attributes as when it was set, or a browser keeps the old cookie.
    // Written as Express's res.cookie writes it (same `cookie` serializer), on any response.
    clearCookie: (res) => {
      res.appendHeader('Set-Cookie', serialize(name, '', { ...cookie, maxAge: 0, expires: new Date() }));
    },
  };
}
