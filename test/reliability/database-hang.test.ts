// the whole PostgreSQL server freezes (SIGSTOP to the postmaster and every
// backend: connections stay open, nothing answers) under traffic on two authorization servers
// and two APIs. Requests fail with 503 + Retry-After within DATABASE_TIMEOUT_MS instead of
// hanging, the event loops stay free (/healthz answers at once, /readyz says 503 in time), and
// after SIGCONT the servers recover by themselves.
import { describe, expect, it } from 'vitest';
import { useCluster } from './support/cluster-suite.ts';
import {
  ANSWER_BOUND_MS,
  DATABASE_TIMEOUT_MS,
  RECOVERY_GOAL_MS,
  runUntilRecovered,
  sleep,
} from './support/database-outage.ts';
import { startLoad, type Sample } from './support/load-generator.ts';
import { describeSamples, latencyOf, reportFigures, watchEventLoop } from './support/outcome-counters.ts';
import { crashReport, isUnavailable, recoveryAfter } from './support/outage-judgement.ts';
import { figuresByKind, invariantCounters, prepareTokenTraffic, probeCall } from './support/token-traffic.ts';

const FREEZE_MS = 5000;

const suite = useCluster({
  redis: true,
  portal: 0,
  env: { DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS), LOG_LEVEL: 'warn' },
});

describe('R-06 PostgreSQL hang', () => {
  it('R-06 pg frozen with SIGSTOP: 503 + Retry-After within the timeout, /healthz stays fast, recovery after SIGCONT', async () => {
    const { cluster, services } = suite;
    const traffic = await prepareTokenTraffic(cluster, 400);
    const eventLoop = watchEventLoop();
    // Enough workers that requests keep arriving while the frozen ones wait out their time limit.
    const load = startLoad({
      concurrency: 120,
      ratePerSecond: 80,
      durationMs: 30_000,
      maxRequests: 3000,
      nextCall: (i) => traffic.nextCall(i),
    });
    const probes = startLoad({
      concurrency: 8,
      ratePerSecond: 40,
      durationMs: 30_000,
      maxRequests: 1500,
      nextCall: (i) => probeCall(cluster, i),
    });
    let frozenAt = 0;
    let thawedAt = 0;
    try {
      await sleep(1000);
      frozenAt = performance.now();
      services.postgres.kill('SIGSTOP');
      await sleep(FREEZE_MS);
    } finally {
      services.postgres.kill('SIGCONT');
      thawedAt = performance.now();
    }
    await runUntilRecovered(load, thawedAt, traffic.ok);
    probes.stop();
    const probeSamples = await probes.done;
    const samples = load.samples;

    // Sent while frozen, early enough to have had their whole time limit before the thaw.
    const whileFrozen = (s: Sample) => s.sentMono >= frozenAt + 100 && s.sentMono <= thawedAt - ANSWER_BOUND_MS;
    const judged = samples.filter(whileFrozen);
    const notUnavailable = judged.filter((s) => !isUnavailable(s));
    const tooSlow = judged.filter((s) => s.latencyMs > ANSWER_BOUND_MS);
    const healthz = probeSamples.filter((s) => s.tag.startsWith('healthz') && whileFrozen(s));
    const readyz = probeSamples.filter((s) => s.tag.startsWith('readyz') && whileFrozen(s));
    const readyzBefore = probeSamples.filter((s) => s.tag.startsWith('readyz') && s.sentMono + s.latencyMs < frozenAt);
    const invariants = invariantCounters(samples);
    const violations = samples.filter((s) => !traffic.ok(s) && !isUnavailable(s));
    const recovery = recoveryAfter(samples, thawedAt, traffic.ok);
    const crashes = crashReport(cluster.all());
    const statuses = (group: Sample[]) => [...new Set(group.map((s) => s.status))];
    reportFigures('R-06', {
      requests: samples.length,
      frozenMs: Math.round(thawedAt - frozenAt),
      byKind: figuresByKind(samples),
      whileFrozen: { requests: judged.length, latencyMs: latencyOf(judged), notUnavailable: notUnavailable.length },
      healthzWhileFrozen: { n: healthz.length, statuses: statuses(healthz), latencyMs: latencyOf(healthz) },
      readyzWhileFrozen: { n: readyz.length, statuses: statuses(readyz), latencyMs: latencyOf(readyz) },
      recovery,
      invariants: { ...invariants, exitedInstances: crashes.exited.length },
      testProcessEventLoopMs: eventLoop.stop(),
    });

    expect(crashes).toEqual({ exited: [], fatal: {} });
    expect(judged.length).toBeGreaterThan(20);
    expect(notUnavailable.length, describeSamples(notUnavailable)).toBe(0);
    expect(tooSlow.length, describeSamples(tooSlow)).toBe(0);
    expect(violations.length, describeSamples(violations)).toBe(0);
    expect(invariants.okForUncheckedToken + invariants.falseInvalidToken + invariants.invalidGrant).toBe(0);
    // The event loops stay free: liveness answers at once while every query hangs.
    expect(healthz.length).toBeGreaterThan(10);
    expect(statuses(healthz)).toEqual([200]);
    expect(latencyOf(healthz).p99).toBeLessThan(250);
    // Readiness says so within the time limit, instead of hanging.
    expect(readyzBefore.length).toBeGreaterThan(0);
    expect(statuses(readyzBefore)).toEqual([200]);
    expect(readyz.length).toBeGreaterThan(5);
    expect(
      readyz.filter((s) => s.status !== 503 || s.latencyMs > ANSWER_BOUND_MS),
      describeSamples(readyz),
    ).toEqual([]);
    expect(recovery.firstOkMs).toBeDefined();
    expect(recovery.errorFreeAfterMs).toBeLessThanOrEqual(RECOVERY_GOAL_MS);
  });
});
