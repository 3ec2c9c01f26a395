import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import { openDatabase } from './open-database.ts';
import { connectRedis, type RedisClient } from './redis.ts';

/** The shared state every server process talks to: the database and, at scale, Redis. */
export interface Infrastructure {
  db: Db;
  /** Present when REDIS_URL is set: sessions and rate-limit counters live there. */
  redis: RedisClient | undefined;
  /** Closes the pools; call after the servers have stopped. */
  close(): Promise<void>;
}

export async function openInfrastructure(config: Config, clock: Clock, logger: Logger): Promise<Infrastructure> {
  const db = await openDatabase(config, clock);
  let redis: RedisClient | undefined;
  try {
    redis = await connectRedis(config, logger);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return {
    db,
    redis,
    async close() {
      await Promise.allSettled([db.destroy(), redis?.close()]);
    },
  };
}
