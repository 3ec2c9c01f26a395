import type session from 'express-session';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { KyselySessionStore } from '@latchkey/runtime';
import { replaceSessionData } from './session-rows.repository.ts';
import { inStore, storeFailure } from './store-failure.ts';

/**
 * The authorization server keeps its sessions in the same table. The portal's rows live
 * under their own key prefix, so an id taken from one server's cookie can never load the
 * other server's session, whatever the cookie says.
 */
const KEY_PREFIX = 'portal:';

function keyOf(sid: string): string {
  return `${KEY_PREFIX}${sid}`;
}

function promised<T>(run: (callback: (err: unknown, value?: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));
}

/**
 * The portal's sessions in the database (DESIGN.md D7: no MemoryStore). A session lives a
 * fixed time from sign-in: `touch` writes nothing, so reading a session on the proxy's hot
 * path never writes to the database.
 */
export class PortalSessionStore extends KyselySessionStore {
  readonly #db: Db;

  constructor(db: Db, clock: Clock, ttlMs: number) {
    super(db, clock, ttlMs);
    this.#db = db;
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

  /** The stored session as it is now, outside any request (the refresh reads it fresh). */
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
