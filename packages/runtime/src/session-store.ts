import session from 'express-session';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';

/** How often expired rows are swept, piggy-backed on writes so no timer needs stopping. */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * express-session store over the `sessions` table (DESIGN.md D7: no MemoryStore). Expiry is
 * checked on read against the injected clock, so an expired row is never served even
 * before it is swept.
 */
export class KyselySessionStore extends session.Store {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #defaultTtlMs: number;
  #lastPrune = 0;

  constructor(db: Db, clock: Clock, defaultTtlMs: number) {
    super();
    this.#db = db;
    this.#clock = clock;
    this.#defaultTtlMs = defaultTtlMs;
  }

  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    this.#read(sid).then(
      (data) => callback(null, data),
      (err: unknown) => callback(err),
    );
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    this.#write(sid, data).then(
      () => callback?.(),
      (err: unknown) => callback?.(err),
    );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.#db
      .deleteFrom('sessions')
      .where('sid', '=', sid)
      .execute()
      .then(
        () => callback?.(),
        (err: unknown) => callback?.(err),
      );
  }

  override touch(sid: string, data: session.SessionData, callback?: () => void): void {
    this.#db
      .updateTable('sessions')
      .set({ expires_at: this.#expiresAt(data) })
      .where('sid', '=', sid)
      .execute()
      .then(
        () => callback?.(),
        // express-session ignores touch errors; the next read decides.
        () => callback?.(),
      );
  }

  async #read(sid: string): Promise<session.SessionData | null> {
    const row = await this.#db
      .selectFrom('sessions')
      .select(['data', 'expires_at'])
      .where('sid', '=', sid)
      .executeTakeFirst();
    if (!row) return null;
    if (Number(row.expires_at) <= this.#clock.now()) {
      await this.#db.deleteFrom('sessions').where('sid', '=', sid).execute();
      return null;
    }
    try {
      return JSON.parse(row.data) as session.SessionData;
    } catch {
      return null;
    }
  }

  async #write(sid: string, data: session.SessionData): Promise<void> {
    const values = { sid, data: JSON.stringify(data), expires_at: this.#expiresAt(data) };
    await this.#db
      .insertInto('sessions')
      .values(values)
      .onConflict((oc) => oc.column('sid').doUpdateSet({ data: values.data, expires_at: values.expires_at }))
      .execute();
    await this.#pruneOccasionally();
  }

  #expiresAt(data: session.SessionData): number {
    const maxAge = data.cookie?.maxAge;
    return this.#clock.now() + (typeof maxAge === 'number' && maxAge > 0 ? maxAge : this.#defaultTtlMs);
  }

  async #pruneOccasionally(): Promise<void> {
    const now = this.#clock.now();
    if (now - this.#lastPrune < PRUNE_INTERVAL_MS) return;
    this.#lastPrune = now;
    await this.#db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}
