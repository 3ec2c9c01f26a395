// What every fault scenario (the R rules) measures. Counts by outcome class, latency
// percentiles, the test process's event-loop delay, and one printed line of figures per
// scenario (`[R-05] {...}`) that the run's output keeps.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Sample } from './load-generator.ts';

export type OutcomeClass = '2xx' | '400' | '401' | '429' | '503' | '5xx-other' | 'other' | 'network';

export function outcomeOf(sample: Pick<Sample, 'status'>): OutcomeClass {
  const { status } = sample;
  if (status === 0) return 'network';
  if (status >= 200 && status < 300) return '2xx';
  if (status === 400 || status === 401 || status === 429 || status === 503) return String(status) as OutcomeClass;
  if (status >= 500) return '5xx-other';
  return 'other';
}

export type OutcomeCounts = Record<OutcomeClass, number>;

export function countOutcomes(samples: readonly Sample[]): OutcomeCounts {
  const counts: OutcomeCounts = {
    '2xx': 0,
    '400': 0,
    '401': 0,
    '429': 0,
    '503': 0,
    '5xx-other': 0,
    other: 0,
    network: 0,
  };
  for (const sample of samples) counts[outcomeOf(sample)] += 1;
  return counts;
}

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Nearest-rank percentiles of the latencies, in ms (0 when there are none). */
export function percentiles(latencies: readonly number[]): Percentiles {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? 0 : round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!));
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

export function latencyOf(samples: readonly Sample[]): Percentiles {
  return percentiles(samples.map((s) => s.latencyMs));
}

/** Samples grouped by a key (tag, target...), each with its counts and percentiles. */
export function breakdown(samples: readonly Sample[], key: (s: Sample) => string) {
  const groups = new Map<string, Sample[]>();
  for (const sample of samples) {
    const k = key(sample);
    const group = groups.get(k);
    if (group) group.push(sample);
    else groups.set(k, [sample]);
  }
  return Object.fromEntries(
    [...groups].map(([k, group]) => [k, { counts: countOutcomes(group), latencyMs: latencyOf(group) }]),
  );
}

/** The test process's own event-loop delay: shows the load generator was not the bottleneck. */
export function watchEventLoop(): { stop(): Percentiles } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      const ms = (ns: number) => round(ns / 1e6);
      return {
        n: histogram.count,
        p50: ms(histogram.percentile(50)),
        p95: ms(histogram.percentile(95)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      };
    },
  };
}

/**
 * Prints one scenario's figures as one line; with RELIABILITY_FIGURES=<file> also appends
 * them there (one JSON object per line) for a report.
 */
export function reportFigures(id: string, figures: Record<string, unknown>): void {
  const line = JSON.stringify({ id, ...figures });
  console.log(`[${id}] ${line}`);
  const file = process.env.RELIABILITY_FIGURES;
  if (file) appendFileSync(file, `${line}\n`);
}

/** A few samples that broke an invariant, short enough for an assertion message. */
export function describeSamples(samples: readonly Sample[], limit = 5): string {
  return samples
    .slice(0, limit)
    .map((s) => `${s.tag} ${s.target} → ${s.status} ${s.error ?? ''} ${s.body.slice(0, 120)}`)
    .join('\n');
}
