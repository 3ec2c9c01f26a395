import { collectDefaultMetrics, Gauge } from 'prom-client';
import type { Metrics } from './metrics.ts';

/** A database pool's connections as metrics-process reads them (@latchkey/db's postgresPoolCounts). */
export interface PoolCounts {
  inUse: number;
  idle: number;
  waiting: number;
}

export interface ProcessMetricsSources {
  /** The PostgreSQL pool's counts; omitted on SQLite, which has no pool (no gauge then). */
  poolCounts?: (() => PoolCounts | undefined) | undefined;
  /** Whether Redis answers; omitted without REDIS_URL (no gauge then). */
  redisUp?: (() => boolean) | undefined;
}

/**
 * OB-06: the process's own series on its registry, read only when Prometheus scrapes (collect
 * callbacks: nothing runs per request, and no timer of ours):
 * - prom-client's default metrics: CPU, memory, heap, handles, GC, and the event-loop lag
 *   (`nodejs_eventloop_lag_*`, from perf_hooks' monitorEventLoopDelay);
 * - `latchkey_db_pool_connections{state}` (`in_use`, `idle`) and `latchkey_db_pool_waiting`;
 * - `latchkey_redis_up` (1 or 0).
 * Once per process (runServerProcess): the default metrics start a delay monitor each time.
 */
export function registerProcessMetrics(metrics: Metrics, sources: ProcessMetricsSources): void {
  const { registry } = metrics;
  collectDefaultMetrics({ register: registry });
  const { poolCounts, redisUp } = sources;
  if (poolCounts !== undefined) {
    new Gauge({
      name: 'latchkey_db_pool_connections',
      help: 'PostgreSQL connections of this process by state: in_use (checked out) or idle.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const counts = poolCounts();
        this.set({ state: 'in_use' }, counts?.inUse ?? 0);
        this.set({ state: 'idle' }, counts?.idle ?? 0);
      },
    });
    new Gauge({
      name: 'latchkey_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection (all DATABASE_POOL_MAX connections in use).',
      registers: [registry],
      collect() {
        this.set(poolCounts()?.waiting ?? 0);
      },
    });
  }
  if (redisUp !== undefined) {
    new Gauge({
      name: 'latchkey_redis_up',
      help: 'Whether Redis answers this process: 1, or 0 while it is down or does not answer in time.',
      registers: [registry],
      collect() {
        this.set(redisUp() ? 1 : 0);
      },
    });
  }
}
