import { createHash } from 'node:crypto';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { RedisClient } from '@latchkey/sessions';
import { pruneLeases, releaseLease, takeLease } from '@latchkey/core';
import { inStore } from './store-failure.ts';

/**
 * D-4 / BF-RT-01 / R-03 across instances: a short lease per session, held by whichever BFF instance
 * is refreshing that session's tokens. The others wait for the new tokens instead of spending
 * the same refresh token, which the authorization server would take as reuse and answer by
 * revoking the whole grant. A lease expires on its own, so a holder that dies mid-refresh
 * blocks the session for at most the lease's lifetime.
 */
export interface RefreshLeases {
  /** Takes the lease for this session unless another holder has a live one. */
  acquire(sid: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives it back, if this holder still has it. */
  release(sid: string, holder: string): Promise<void>;
}

/** The lease is named by a digest: session ids stay out of one more place. */
function leaseName(sid: string): string {
  return `portal-refresh:${createHash('sha256').update(sid).digest('base64url')}`;
}

const REDIS_PREFIX = 'lk:portal:lease:';

/** Deletes the key only if it still names this holder (no compare-and-delete command in Redis 7). */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/** Redis: SET NX PX, so Redis itself expires a dead holder's lease. */
export function redisRefreshLeases(redis: RedisClient): RefreshLeases {
  return {
    async acquire(sid, holder, ttlMs) {
      const reply = await inStore(
        redis.set(`${REDIS_PREFIX}${leaseName(sid)}`, holder, {
          condition: 'NX',
          expiration: { type: 'PX', value: ttlMs },
        }),
      );
      return reply === 'OK';
    },
    async release(sid, holder) {
      await inStore(redis.eval(RELEASE_SCRIPT, { keys: [`${REDIS_PREFIX}${leaseName(sid)}`], arguments: [holder] }));
    },
  };
}

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/** The database's `locks` table, with the injected clock (as the sessions' expiry). */
export function databaseRefreshLeases(db: Db, clock: Clock): RefreshLeases {
  let lastPrune = 0;
  return {
    async acquire(sid, holder, ttlMs) {
      const now = clock.now();
      if (now - lastPrune >= PRUNE_INTERVAL_MS) {
        lastPrune = now;
        await inStore(pruneLeases(db, now - PRUNE_INTERVAL_MS));
      }
      return inStore(takeLease(db, leaseName(sid), holder, now, ttlMs));
    },
    async release(sid, holder) {
      await inStore(releaseLease(db, leaseName(sid), holder));
    },
  };
}
