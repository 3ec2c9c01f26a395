// requests hammer /graphql with tokens while the test revokes them; what
// each request was answered is judged against when it was sent:
// - sent after the revocation call returned (client clock): the commit is certainly behind
//   it, so the answer must be 401 invalid_token;
// - sent after the commit's own timestamp (PostgreSQL track_commit_timestamp, same host
//   clock): not one may be 200. This is the stronger, server-side ordering: it also covers
//   requests sent while the revocation call was still running.
import { countOutcomes, latencyOf, watchEventLoop, type OutcomeCounts, type Percentiles } from './outcome-counters.ts';
import { startLoad, type HttpCall, type Sample } from './load-generator.ts';

export interface RevocationRaceOptions {
  /** Round-robin over these: every token on every API instance. */
  calls: HttpCall[];
  /** Commits the revocation; resolves when its caller has the answer. */
  revoke(): Promise<void>;
  /** Wall-clock ms of the revocation's commit on the database server, if it can be read. */
  commitTime?(): Promise<number | undefined>;
  concurrency?: number;
  /** Load before and after the revocation. */
  phaseMs?: number;
}

export interface RevocationRaceResult {
  samples: Sample[];
  /** How long the revocation call took, as its caller saw it. */
  revocationMs: number;
  before: { counts: OutcomeCounts; latencyMs: Percentiles };
  /** Sent while the revocation call was running. */
  during: { counts: OutcomeCounts };
  /** Sent after the revocation call returned. */
  after: { counts: OutcomeCounts; latencyMs: Percentiles; notInvalidToken: Sample[] };
  /** Sent after the commit timestamp (undefined when the timestamp could not be read). */
  afterCommit: { requests: number; ok: Sample[] } | undefined;
  /** Answered 200 although sent after the revocation call returned: must be empty. */
  okAfterRevocation: Sample[];
  eventLoopMs: Percentiles;
  requestsPerSecond: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function raceRevocation(options: RevocationRaceOptions): Promise<RevocationRaceResult> {
  const phaseMs = options.phaseMs ?? 1000;
  const eventLoop = watchEventLoop();
  const started = performance.now();
  const load = startLoad({
    concurrency: options.concurrency ?? 50,
    durationMs: phaseMs * 2 + 30_000,
    maxRequests: 200_000,
    nextCall: (i) => options.calls[i % options.calls.length],
  });
  await sleep(phaseMs);
  const revokeStart = performance.now();
  await options.revoke();
  const revokeEnd = performance.now();
  await sleep(phaseMs);
  load.stop();
  const samples = await load.done;
  const elapsedMs = performance.now() - started;
  const eventLoopMs = eventLoop.stop();
  const commit = await options.commitTime?.();

  const before = samples.filter((s) => s.sentMono + s.latencyMs < revokeStart);
  const during = samples.filter((s) => s.sentMono >= revokeStart && s.sentMono <= revokeEnd);
  const after = samples.filter((s) => s.sentMono > revokeEnd);
  // Date.now() at send is a lower bound of the send instant: `sentAt > commit` means after it.
  const afterCommit = commit === undefined ? undefined : samples.filter((s) => s.sentAt > commit);
  return {
    samples,
    revocationMs: Math.round((revokeEnd - revokeStart) * 10) / 10,
    before: { counts: countOutcomes(before), latencyMs: latencyOf(before) },
    during: { counts: countOutcomes(during) },
    after: {
      counts: countOutcomes(after),
      latencyMs: latencyOf(after),
      notInvalidToken: after.filter((s) => s.status !== 401 || s.error !== 'invalid_token'),
    },
    afterCommit:
      afterCommit === undefined
        ? undefined
        : { requests: afterCommit.length, ok: afterCommit.filter((s) => s.status === 200) },
    okAfterRevocation: after.filter((s) => s.status === 200),
    eventLoopMs,
    requestsPerSecond: Math.round(samples.length / (elapsedMs / 1000)),
  };
}

/** The figures of one race, for reportFigures. */
export function raceFigures(result: RevocationRaceResult): Record<string, unknown> {
  return {
    requests: result.samples.length,
    requestsPerSecond: result.requestsPerSecond,
    revocationMs: result.revocationMs,
    before: result.before,
    during: result.during,
    after: { counts: result.after.counts, latencyMs: result.after.latencyMs },
    afterCommit:
      result.afterCommit === undefined
        ? 'commit timestamp unavailable'
        : { requests: result.afterCommit.requests, ok: result.afterCommit.ok.length },
    invariant_okAfterRevocation: result.okAfterRevocation.length,
    testProcessEventLoopMs: result.eventLoopMs,
  };
}
