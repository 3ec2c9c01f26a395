import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { Tracing } from '@latchkey/observability';
import { connectRedis, type RedisClient } from '@latchkey/sessions';
import { openDatabase } from './open-database.ts';

/** The shared state every server process talks to: the database and, at scale, Redis. */
export interface Infrastructure {
  db: Db;
  /** Present when REDIS_URL is set: sessions and rate-limit counters live there. */
  redis: RedisClient | undefined;
  /** Closes the pools; call after the servers have stopped. Never rejects; safe to call twice. */
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Names the process to PostgreSQL (pg_stat_activity), e.g. latchkey-auth. */
  applicationName?: string;
  /** OB-09: Redis commands are traced when tracing is on. */
  tracing?: Tracing;
}

/**
 * Opens the database (migrated, portal client provisioned) and, when REDIS_URL is set, Redis.
 * Fails when the database cannot be opened; never because Redis is down (connectRedis).
 */
export async function openInfrastructure(
  config: Config,
  clock: Clock,
  logger: Logger,
  options: InfrastructureOptions = {},
): Promise<Infrastructure> {
  const { tracing: _tracing, ...databaseOptions } = options;
  const db = await openDatabase(config, clock, { ...databaseOptions, logger });
  let redis: RedisClient | undefined;
  try {
    redis = await connectRedis(config, logger, options.tracing);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    db,
    redis,
    close() {
      closing ??= Promise.allSettled([db.destroy(), redis?.close()]).then(() => undefined);
      return closing;
    },
  };
}
