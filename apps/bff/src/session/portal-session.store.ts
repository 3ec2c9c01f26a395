import type session from 'express-session';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { KyselySessionStore } from '@latchkey/sessions';
import { databaseRefreshLeases, type RefreshLeases } from './refresh-lease.ts';
import { replaceSessionData } from './session-rows.repository.ts';
import { inStore, storeFailure } from './store-failure.ts';

/**
 * The portal's session store, in the database or in Redis (DD-7), as express-session
 * and the rest of the BFF use it. Both implementations keep the same promises:
 * - every failure, for whatever reason, is SessionStoreUnavailable (503 + Retry-After, BF-RD-01);
 * - a session lives a fixed time from sign-in, and `touch` writes nothing, so reading a
 *   session on the proxy's hot path never writes;
 * - `replace` never recreates a session that was destroyed meanwhile (sign-out during a refresh).
 */
export interface PortalSessionStore extends session.Store {
  /** The stored session as it is now, outside any request (the refresh reads it fresh). */
  readSession(sid: string): Promise<session.SessionData | null>;
  remove(sid: string): Promise<void>;
  /** Replaces the data and keeps the expiry; false (and nothing written) if the session is gone. */
  replace(sid: string, data: session.SessionData): Promise<boolean>;
  /** Leases in the same shared store, so one instance at a time refreshes a session (BF-RT-01). */
  readonly leases: RefreshLeases;
}

/**
 * The authorization server keeps its sessions in the same table. The portal's rows live
 * under their own key prefix, so an id taken from one server's cookie can never load the
 * other server's session, whatever the cookie says.
 */
const KEY_PREFIX = 'portal:';

function keyOf(sid: string): string {
  return `${KEY_PREFIX}${sid}`;
}

export function promised<T>(run: (callback: (err: unknown, value?: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));
}

/** The portal's sessions in the database's `sessions` table (no REDIS_URL). */
export class DatabasePortalSessionStore extends KyselySessionStore implements PortalSessionStore {
  readonly #db: Db;
  readonly leases: RefreshLeases;

  constructor(db: Db, clock: Clock, ttlMs: number) {
    super(db, clock, ttlMs);
    this.#db = db;
    this.leases = databaseRefreshLeases(db, clock);
  }

  // Failures reach express-session, and from it the error handler, as SessionStoreUnavailable.
  override get(sid: string, callback: (err: unknown, data?: session.SessionData | null) => void): void {
    super.get(keyOf(sid), (err, data) => (err ? callback(storeFailure(err)) : callback(null, data)));
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    super.set(keyOf(sid), data, (err) => callback?.(err ? storeFailure(err) : undefined));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    super.destroy(keyOf(sid), (err) => callback?.(err ? storeFailure(err) : undefined));
  }

  override touch(_sid: string, _data: session.SessionData, callback?: () => void): void {
    callback?.();
  }

  async readSession(sid: string): Promise<session.SessionData | null> {
    return (await promised<session.SessionData | null>((cb) => this.get(sid, cb))) ?? null;
  }

  async remove(sid: string): Promise<void> {
    await promised((cb) => this.destroy(sid, cb));
  }

  /** See replaceSessionData: keeps the expiry, and never recreates a session that is gone. */
  async replace(sid: string, data: session.SessionData): Promise<boolean> {
    return inStore(replaceSessionData(this.#db, keyOf(sid), JSON.stringify(data)));
  }
}
