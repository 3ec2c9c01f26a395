import type session from 'express-session';
import { RedisSessionStore, type RedisClient } from '@latchkey/sessions';
import { promised, type PortalSessionStore } from './portal-session.store.ts';
import { redisRefreshLeases, type RefreshLeases } from './refresh-lease.ts';
import { inStore, storeFailure } from './store-failure.ts';

/** The portal's keys; the authorization server's sessions live under `lk:auth:sess:`. */
export const REDIS_SESSION_PREFIX = 'lk:portal:sess:';

type Callback = (err?: unknown, data?: any) => any;

/**
 * The portal's sessions in Redis (REDIS_URL set, DD-7), so every BFF instance sees the same
 * sessions and any of them can serve one (MI-01). Each key expires with its cookie. Redis answers
 * within REDIS_TIMEOUT_MS or the request gets 503.
 */
export class RedisPortalSessionStore extends RedisSessionStore implements PortalSessionStore {
  readonly leases: RefreshLeases;

  constructor(redis: RedisClient, ttlMs: number) {
    super(redis, { prefix: REDIS_SESSION_PREFIX, ttlMs, touch: false });
    this.leases = redisRefreshLeases(redis);
  }

  // Failures reach express-session, and from it the error handler, as SessionStoreUnavailable.
  override get(sid: string, callback?: Callback): Promise<unknown> {
    return super.get(sid, (err, data) => (err ? callback?.(storeFailure(err)) : callback?.(null, data)));
  }

  override set(sid: string, data: session.SessionData, callback?: Callback): Promise<unknown> {
    return super.set(sid, data, (err) => callback?.(err ? storeFailure(err) : undefined));
  }

  override destroy(sid: string, callback?: Callback): Promise<unknown> {
    return super.destroy(sid, (err) => callback?.(err ? storeFailure(err) : undefined));
  }

  /** A session lives a fixed time from sign-in: reading it on the hot path writes nothing. */
  override touch(_sid: string, _data: session.SessionData, callback?: Callback): Promise<unknown> {
    callback?.();
    return Promise.resolve();
  }

  async readSession(sid: string): Promise<session.SessionData | null> {
    return (await promised<session.SessionData | null>((cb) => void this.get(sid, cb))) ?? null;
  }

  async remove(sid: string): Promise<void> {
    await promised((cb) => void this.destroy(sid, cb));
  }

  /**
   * SET … XX KEEPTTL: written only if the key still exists, with its expiry unchanged, in one
   * command, so a refresh that finishes after sign-out cannot bring the session back.
   */
  async replace(sid: string, data: session.SessionData): Promise<boolean> {
    const reply = await inStore(
      this.redis.set(`${this.prefix}${sid}`, JSON.stringify(data), { condition: 'XX', expiration: 'KEEPTTL' }),
    );
    return reply === 'OK';
  }
}
