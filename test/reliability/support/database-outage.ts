// Shared by the PostgreSQL fault tests: the time limit the instances run with,
// the bounds the answers are judged against, and running the load until it has recovered.
import type { RunningLoad, Sample } from './load-generator.ts';
import { recoveryAfter } from './outage-judgement.ts';

/** DATABASE_TIMEOUT_MS of the instances: small, so a hang shows within the test's time. */
export const DATABASE_TIMEOUT_MS = 1000;
/** A request may wait for a connection, then for its query: each bounded by the timeout. */
export const ANSWER_BOUND_MS = 2 * DATABASE_TIMEOUT_MS + 1000;
/** Recovery goal: error-free this soon after the database is back, without restarting Node. */
export const RECOVERY_GOAL_MS = 5000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the load running after `backAt` until it has been error-free for 2 s (at most 12 s). */
export async function runUntilRecovered(load: RunningLoad, backAt: number, ok: (s: Sample) => boolean): Promise<void> {
  for (;;) {
    await sleep(250);
    const since = performance.now() - backAt;
    const { errorFreeAfterMs } = recoveryAfter(load.samples, backAt, ok);
    if (since - errorFreeAfterMs >= 2000 || since > 12_000) break;
  }
  load.stop();
  await load.done;
}
