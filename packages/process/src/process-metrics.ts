import type { Config } from '@latchkey/config';
import { postgresPoolCounts } from '@latchkey/db';
import { registerProcessMetrics, type Metrics } from '@latchkey/observability';
import { redisHealth, type RedisClient } from '@latchkey/sessions';

/**
 * OB-06: the process's gauges on its registry (metrics-process.ts): default process metrics and
 * event-loop lag always, the PostgreSQL pool's counts when DATABASE_URL is set, Redis's health
 * (redis-health.ts) when REDIS_URL is.
 */
export function observeProcess(metrics: Metrics, config: Config, redis: RedisClient | undefined): void {
  const health = redis === undefined ? undefined : redisHealth(redis);
  registerProcessMetrics(metrics, {
    poolCounts: config.databaseUrl === undefined ? undefined : postgresPoolCounts,
    redisUp: health === undefined ? undefined : () => health.up,
  });
}
