import type { Counter } from 'prom-client';
import type { Metrics, TokenCheckOutcome } from './metrics.ts';

/** A counter's child for one set of label values, as counter.labels(...) returns it. */
export type CounterChild = Counter.Internal;

/** One pre-bound child per token check outcome: an increment is a field read and an add (OB-02). */
export type TokenCheckCounters = Readonly<Record<TokenCheckOutcome, Counter.Internal>>;

const TOKEN_CHECK_OUTCOMES: readonly TokenCheckOutcome[] = ['ok', 'invalid', 'expired', 'revoked', 'unavailable'];

const tokenCheckCounters = new WeakMap<Metrics, TokenCheckCounters>();

/**
 * The token check counter's children, bound once per registry: the API counts every request,
 * so no label object is built and no label lookup is made per check. Every outcome is
 * exported at 0 from the start, so a dashboard's rate() sees the first `unavailable`.
 */
export function tokenCheckCountersOf(metrics: Metrics): TokenCheckCounters {
  let counters = tokenCheckCounters.get(metrics);
  if (counters === undefined) {
    const bound = {} as Record<TokenCheckOutcome, Counter.Internal>;
    for (const outcome of TOKEN_CHECK_OUTCOMES) {
      bound[outcome] = metrics.tokenChecks.labels(outcome);
      bound[outcome].inc(0);
    }
    counters = Object.freeze(bound);
    tokenCheckCounters.set(metrics, counters);
  }
  return counters;
}

/**
 * The child of `counter` for one fixed label value (a rate limit's name, a sign-in outcome),
 * bound where the code that counts is built, never per request. Exported at 0 from the start.
 */
export function boundCounter<L extends string>(counter: Counter<L>, value: string): Counter.Internal {
  const child = counter.labels(value);
  child.inc(0);
  return child;
}
