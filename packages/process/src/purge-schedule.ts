import type { Config } from '@latchkey/config';
import { purgeExpiredData, type Clock } from '@latchkey/core';
import { isDatabaseUnavailable, type Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';

export interface PurgeScheduleOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  retention: Config['retention'];
  /** Tests: the interval and the first run's delay in ms, instead of PURGE_INTERVAL_MINUTES. */
  intervalMs?: number;
  firstDelayMs?: number;
}

export interface PurgeSchedule {
  /** Clears the timer and stops a run in progress between two batches; resolves once it has. */
  stop(): Promise<void>;
}

const MINUTE_MS = 60_000;

/**
 * A few minutes after start (one to five for the hourly default, never more than the interval),
 * at a random point so instances started together do not all try at the same moment.
 */
function firstDelayFor(intervalMs: number): number {
  return Math.round(Math.min(intervalMs, 5 * MINUTE_MS) * (0.2 + 0.8 * Math.random()));
}

/**
 * RE-06: every server process purges what is past retention (purgeExpiredData) every
 * PURGE_INTERVAL_MINUTES (0: never), the first time a few minutes after start; the `locks` lease
 * makes one instance purge at a time (RE-04). The timer is unref'd (it never keeps a process
 * alive), the next run is armed only once the last one ended (runs never overlap), a failure is
 * logged and waits for the next run, and `stop()` (on shutdown, before the pools close) ends it.
 */
export function schedulePurge(options: PurgeScheduleOptions): PurgeSchedule {
  const { db, clock, logger, retention } = options;
  const intervalMs = options.intervalMs ?? retention.purgeIntervalMinutes * MINUTE_MS;
  if (intervalMs <= 0) return { stop: () => Promise.resolve() };
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    const started = performance.now();
    try {
      const result = await purgeExpiredData(db, clock, {
        retentionDays: retention.days,
        auditRetentionDays: retention.auditDays,
        signal: abort.signal,
      });
      const durationMs = Math.round(performance.now() - started);
      if (result.skipped) logger.debug('purge skipped: another instance is purging');
      else
        logger.info(
          { deleted: result.deleted, tokenExpiredEvents: result.tokenExpiredEvents, durationMs },
          'purge done',
        );
    } catch (err) {
      if (isDatabaseUnavailable(err))
        logger.warn({ reason: (err as Error).message }, 'purge failed: database unavailable');
      else logger.error({ err }, 'purge failed');
    }
  }

  function arm(delayMs: number): void {
    if (abort.signal.aborted) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = undefined;
        arm(intervalMs);
      });
    }, delayMs);
    timer.unref();
  }

  arm(options.firstDelayMs ?? firstDelayFor(intervalMs));
  return {
    async stop() {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
