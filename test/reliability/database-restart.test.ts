// PostgreSQL restarts (pg_ctl restart -m fast: clients are disconnected)
// while two authorization servers and two APIs serve ~200 requests a second. While it is away
// every answer is the right one or 503 with Retry-After (D-10): never a 200 for a token that
// could not be checked, never a false 401 or invalid_grant, never a 500; no process dies; no
// half-written grant; and the servers recover by themselves within a few seconds.
import { describe, expect, it } from 'vitest';
import { useCluster } from './support/cluster-suite.ts';
import { DATABASE_TIMEOUT_MS, RECOVERY_GOAL_MS, runUntilRecovered, sleep } from './support/database-outage.ts';
import { partialGrants, rowsPerGrant } from '../support/grant-rows.ts';
import { startLoad } from './support/load-generator.ts';
import { describeSamples, reportFigures, watchEventLoop } from './support/outcome-counters.ts';
import { crashReport, isUnavailable, recoveryAfter, residentMemoryMiB } from './support/outage-judgement.ts';
import { figuresByKind, invariantCounters, kindOf, prepareTokenTraffic } from './support/token-traffic.ts';

function memoryOf(servers: ReadonlyArray<{ name: string; pid: number }>) {
  return Object.fromEntries(servers.map((p) => [p.name, residentMemoryMiB(p.pid)]));
}

// fast: pg_ctl restart -m fast (clients disconnected, clean shutdown); immediate: -m immediate
// (no shutdown at all: crash recovery on start, in-flight transactions lost). A cluster each,
// so that an instance lost in one scenario cannot fail the other.
describe.each(['fast', 'immediate'] as const)('R-05 PostgreSQL restart (%s) while serving', (mode) => {
  const suite = useCluster({
    redis: true,
    durableCommits: true,
    portal: 0,
    env: { DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS), LOG_LEVEL: 'warn' },
  });

  it(`R-05 pg restart (${mode}) during ~200 rps of /graphql and /oauth/token: 503 + Retry-After, no false answers, 0 partial grants, recovery without a restart`, async () => {
    const { cluster, services } = suite;
    const traffic = await prepareTokenTraffic(cluster, 700);
    const memoryBefore = memoryOf(cluster.all());
    const eventLoop = watchEventLoop();
    const load = startLoad({
      concurrency: 64,
      ratePerSecond: 200,
      durationMs: 30_000,
      maxRequests: 6000,
      nextCall: (i) => traffic.nextCall(i),
    });
    await sleep(1500);
    const downAt = performance.now();
    await services.postgres.restart(mode);
    const backAt = performance.now();
    await runUntilRecovered(load, backAt, traffic.ok);
    const samples = load.samples;

    const crashes = crashReport(cluster.all());
    const invariants = invariantCounters(samples);
    const violations = samples.filter((s) => !traffic.ok(s) && !isUnavailable(s));
    const rows = await rowsPerGrant(cluster.db, traffic.app.client.id);
    const partial = partialGrants(rows);
    const codeSuccesses = samples.filter((s) => kindOf(s) === 'code' && traffic.ok(s)).length;
    const recovery = recoveryAfter(samples, backAt, traffic.ok);
    reportFigures(`R-05 ${mode}`, {
      requests: samples.length,
      outageMs: Math.round(backAt - downAt),
      byKind: figuresByKind(samples),
      unavailable: samples.filter((s) => isUnavailable(s)).length,
      recovery,
      codes: {
        sent: traffic.codesUsed(),
        answered200: codeSuccesses,
        consumed: rows.filter((r) => r.consumed).length,
      },
      invariants: { ...invariants, partialGrants: partial.length, exitedInstances: crashes.exited.length },
      rssMiB: { before: memoryBefore, after: memoryOf(cluster.all()) },
      testProcessEventLoopMs: eventLoop.stop(),
    });

    // No crash first: a dead instance explains every other failure below.
    expect(crashes).toEqual({ exited: [], fatal: {} });
    expect(violations.length, describeSamples(violations)).toBe(0);
    expect(invariants).toEqual({
      okForUncheckedToken: 0,
      falseInvalidToken: 0,
      invalidGrant: 0,
      unavailableWithoutRetryAfter: 0,
      server5xx: 0,
      network: 0,
    });
    expect(partial, JSON.stringify(partial.slice(0, 3))).toEqual([]);
    // Every 200 of the token endpoint is a consumed code with its pair (a 503 may still follow
    // a commit the server could not confirm: those codes are complete too, just undelivered).
    expect(rows.filter((r) => r.consumed).length).toBeGreaterThanOrEqual(codeSuccesses);
    expect(recovery.firstOkMs).toBeDefined();
    expect(recovery.errorFreeAfterMs).toBeLessThanOrEqual(RECOVERY_GOAL_MS);
  });
});
