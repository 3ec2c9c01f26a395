import { RedisStore } from 'connect-redis';
import session from 'express-session';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { DependencyUnavailableError } from '@latchkey/http';
import { redisHealth, type RedisClient } from './redis.ts';
import type { RedisHealth } from './redis-health.ts';

/** How often expired rows are swept, piggy-backed on writes so no timer needs stopping. */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * express-session store over the `sessions` table (DD-7: no MemoryStore). Expiry is
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

export interface RedisSessionStoreOptions {
  /** Key prefix, one per server, so one server's cookie can never load the other's session. */
  prefix: string;
  /** Lifetime of a session without a cookie expiry (the cookie's maxAge, normally). */
  ttlMs: number;
  /** false: `touch` writes nothing (the sessions have a fixed lifetime from sign-in). */
  touch: boolean;
}

/**
 * express-session store in Redis (DD-7, REDIS_URL set): connect-redis 10 over the
 * guarded client (redis.ts), so every call answers within REDIS_TIMEOUT_MS or fails with
 * DependencyUnavailableError('redis'). A key lives as long as its cookie: its TTL is the
 * time left until the cookie's expiry.
 *
 * The store follows the client's health (redisHealth): it tells express-session 'disconnect'
 * when Redis stops answering (down, or hung: a command timed out) and 'connect' once it
 * answers again. While disconnected express-session skips the store and leaves req.session
 * unset, which the apps answer with 503, never as "signed out" (BF-RD-01); and `get` fails at
 * once instead of waiting out the timeout on every request.
 */
export class RedisSessionStore extends RedisStore {
  readonly redis: RedisClient;
  readonly #health: RedisHealth;

  constructor(client: RedisClient, options: RedisSessionStoreOptions) {
    const fallbackSeconds = Math.max(1, Math.ceil(options.ttlMs / 1000));
    super({
      client,
      prefix: options.prefix,
      disableTouch: !options.touch,
      ttl: (sess: session.SessionData) => {
        const expires = sess.cookie?.expires;
        if (!expires) return fallbackSeconds;
        // Real time on purpose: the cookie's expiry was computed from it, and Redis counts in it.
        return Math.ceil((new Date(expires).getTime() - Date.now()) / 1000);
      },
    });
    this.redis = client;
    this.#health = redisHealth(client);
    this.#health.onChange((up) => this.emit(up ? 'connect' : 'disconnect'));
    // express-session subscribes right after constructing the store: tell it on the next tick.
    process.nextTick(() => {
      if (!this.#health.up) this.emit('disconnect');
    });
  }

  /** Whether Redis answers right now, as far as this process can tell. */
  get available(): boolean {
    return this.#health.up;
  }

  override get(sid: string, cb?: (err?: unknown, data?: any) => any): Promise<any> {
    if (!this.#health.up) {
      const err = new DependencyUnavailableError('redis', 'Redis is not answering: the session cannot be read.');
      if (!cb) return Promise.reject(err);
      cb(err);
      return Promise.resolve();
    }
    return super.get(sid, cb);
  }
}
