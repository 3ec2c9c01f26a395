import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NextFunction, Request, Response } from 'express';
import type session from 'express-session';
import type { Clock } from '@latchkey/core';
import type { Logger } from '@latchkey/logging';
import { SessionEnded, Unauthenticated, UpstreamUnavailable } from '../http/bff.errors.ts';
import { GrantRejected } from '../oidc/oidc.errors.ts';
import type { IssuedTokens, PortalOidcClient } from '../oidc/oidc-client.ts';
import type { UpstreamAnswer } from '../proxy/upstream.ts';
import type { PortalSessionStore } from './portal-session.store.ts';
import type { LoadedSession, PortalSignIn, SealedTokens } from './portal-session.ts';
import type { TokenSealer } from './token-sealing.ts';

/** Refresh a little before the access token's stated expiry, not after a refused call. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * How long one instance may hold a session's refresh lease: longer than a refresh can take
 * (the upstream time limit, 10 s by default), short enough that a holder that died frees
 * the session soon.
 */
const REFRESH_LEASE_MS = 15_000;
/** How often an instance that waits for another's refresh looks at the stored session. */
const LEASE_POLL_MS = 25;
/** An instance waits this long for another's refresh (a dead holder's lease expires within it). */
const LEASE_WAIT_MS = REFRESH_LEASE_MS + 5_000;

export interface SessionTokens {
  seal(tokens: IssuedTokens): SealedTokens;
  open(tokens: SealedTokens): IssuedTokens | undefined;
  /**
   * Calls an upstream with the session's access token. BF-PX-02: an answer of 401 means the
   * token is dead; the session refreshes once (single-flight, BF-RT-01) and the call is made
   * once more. A second 401, or a refresh the server refuses (BF-RT-02), ends the session.
   */
  withAccessToken(
    session: SignedInSession,
    call: (accessToken: string) => Promise<UpstreamAnswer>,
  ): Promise<UpstreamAnswer>;
}

/** A session with a completed sign-in in it, as one request read it. */
export interface SignedInSession {
  /** The session id, without the store's key prefix. */
  id: string;
  signIn: PortalSignIn;
}

export interface SessionTokensDeps {
  clock: Clock;
  logger: Logger;
  store: PortalSessionStore;
  sealer: TokenSealer;
  client: PortalOidcClient;
}

/** The sign-in in a session's data; 401 `unauthenticated` when there is none. */
export function signInFromData(data: Partial<session.SessionData> | undefined): PortalSignIn {
  const signIn = data?.portal;
  if (!signIn) throw notSignedIn();
  return signIn;
}

function notSignedIn(): Unauthenticated {
  return new Unauthenticated('Sign in to use the portal.');
}

export function signInOf(req: Request): PortalSignIn {
  return signInFromData(req.session);
}

/** The signed-in session express-session loaded for this request. */
export function signedInSessionOf(req: Request): SignedInSession {
  return { id: req.sessionID, signIn: signInOf(req) };
}

/** The signed-in session the fast path loaded (PortalSessions.load); 401 without one. */
export function signedIn(loaded: LoadedSession | undefined): SignedInSession {
  if (loaded === undefined) throw notSignedIn();
  return { id: loaded.id, signIn: signInFromData(loaded.data) };
}

/** 401 `unauthenticated` before any body is read or any upstream is called. */
export function requireSignIn(req: Request, _res: Response, next: NextFunction): void {
  signInOf(req);
  next();
}

/**
 * D-4: the authorization server rotates refresh tokens strictly, and a second use of one
 * revokes the whole grant. Concurrent requests of one session therefore share one refresh,
 * on two levels (BF-RT-01):
 * 1. in this process, a promise per session id, so one instance makes one attempt at a time;
 * 2. across instances, a short lease per session in the shared store (Redis SET NX PX, or the
 *    database's `locks` table). The instance that gets it refreshes; the others poll the
 *    stored session until its access token changes and use the new one. A lease expires on
 *    its own if its holder dies.
 * A request that saw its token refused after a refresh finished finds the new tokens in the
 * store and does not refresh again.
 */
export function sessionTokens(deps: SessionTokensDeps): SessionTokens {
  const { store, sealer, client } = deps;
  const inflight = new Map<string, Promise<IssuedTokens>>();

  // TS-02, BF-TK-01: the tokens live only here, sealed in the server-side session; no answer carries one.
  function seal(tokens: IssuedTokens): SealedTokens {
    return {
      accessToken: sealer.seal(tokens.accessToken),
      refreshToken: sealer.seal(tokens.refreshToken),
      expiresAt: tokens.expiresAt,
    };
  }

  function open(tokens: SealedTokens): IssuedTokens | undefined {
    const accessToken = sealer.open(tokens.accessToken);
    const refreshToken = sealer.open(tokens.refreshToken);
    if (accessToken === undefined || refreshToken === undefined) return undefined;
    return { accessToken, refreshToken, expiresAt: tokens.expiresAt };
  }

  async function endSession(sid: string, reason: string): Promise<never> {
    await store.remove(sid);
    deps.logger.info({ reason }, 'portal session ended');
    throw new SessionEnded('Your session has ended. Sign in again.');
  }

  /**
   * The session's tokens as stored now (read fresh, not from this request's copy), or the
   * end of the session. `fresh` is set when they are no longer the stale ones: someone else
   * already refreshed.
   */
  async function current(sid: string, staleAccessToken: string) {
    const data = await store.readSession(sid);
    const signIn = data?.portal;
    if (!data || !signIn) throw new SessionEnded('Your session has ended. Sign in again.');
    const stored = open(signIn.tokens);
    if (!stored) return endSession(sid, 'session tokens unreadable');
    return { data, signIn, stored, fresh: stored.accessToken !== staleAccessToken };
  }

  /** Runs with this instance holding the session's lease. */
  async function refreshHeld(sid: string, staleAccessToken: string): Promise<IssuedTokens> {
    // Read again under the lease: another instance may have finished just before we got it.
    const { data, signIn, stored, fresh } = await current(sid, staleAccessToken);
    if (fresh) return stored;
    let issued: IssuedTokens;
    try {
      issued = await client.refresh(stored.refreshToken);
    } catch (err) {
      if (err instanceof GrantRejected) return endSession(sid, `refresh refused: ${err.oauthError}`);
      throw err;
    }
    const saved = await store.replace(sid, { ...data, portal: { ...signIn, tokens: seal(issued) } });
    if (!saved) throw new SessionEnded('Your session has ended. Sign in again.');
    return issued;
  }

  async function refreshStored(sid: string, staleAccessToken: string): Promise<IssuedTokens> {
    const first = await current(sid, staleAccessToken);
    if (first.fresh) return first.stored;
    const holder = randomUUID();
    const startedAt = performance.now();
    for (;;) {
      if (await store.leases.acquire(sid, holder, REFRESH_LEASE_MS)) {
        try {
          return await refreshHeld(sid, staleAccessToken);
        } finally {
          // Best effort: if this fails the lease simply expires.
          await store.leases.release(sid, holder).catch((err: unknown) => {
            deps.logger.warn({ reason: err instanceof Error ? err.name : 'unknown' }, 'refresh lease not released');
          });
        }
      }
      // Another instance is refreshing this session: wait for its result in the store.
      await sleep(LEASE_POLL_MS);
      const latest = await current(sid, staleAccessToken);
      if (latest.fresh) return latest.stored;
      if (performance.now() - startedAt > LEASE_WAIT_MS) {
        throw new UpstreamUnavailable('Your session is being renewed. Try again in a few seconds.');
      }
    }
  }

  function refreshOnce(sid: string, staleAccessToken: string): Promise<IssuedTokens> {
    let pending = inflight.get(sid);
    if (!pending) {
      pending = refreshStored(sid, staleAccessToken).finally(() => inflight.delete(sid));
      inflight.set(sid, pending);
    }
    return pending;
  }

  return {
    seal,
    open,
    async withAccessToken(session, call) {
      const sid = session.id;
      const sealed = session.signIn.tokens;
      // Only the access token is opened on this hot path; the refresh token when it is used.
      let accessToken = sealer.open(sealed.accessToken);
      if (accessToken === undefined) return endSession(sid, 'session tokens unreadable');
      if (sealed.expiresAt !== null && sealed.expiresAt - EXPIRY_MARGIN_MS <= deps.clock.now()) {
        accessToken = (await refreshOnce(sid, accessToken)).accessToken;
      }
      const first = await call(accessToken);
      if (first.status !== 401) return first;
      accessToken = (await refreshOnce(sid, accessToken)).accessToken;
      const second = await call(accessToken);
      if (second.status === 401) return endSession(sid, 'fresh access token refused');
      return second;
    },
  };
}
