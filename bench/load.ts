import autocannon, { type Options, type Result } from 'autocannon';
import { processCpuSeconds } from './process-cpu.ts';

export const CONNECTIONS = 64;

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  statuses: string;
  /** The server process's CPU time (user + system) per answered request, when it can be read. */
  cpuMicrosPerRequest?: number;
}

function toMeasurement(name: string, result: Result, requestsPerSecond: number): Measurement {
  return {
    name,
    requestsPerSecond,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    statuses: Object.entries(result.statusCodeStats)
      .map(([status, { count }]) => `${status}×${count}`)
      .join(' '),
  };
}

/**
 * Keep-alive load at a fixed connection count: a short warm-up (JIT, caches), then the measured
 * run. With the server's pid, its CPU time over the measured run is reported per request.
 */
export async function measureSteady(
  name: string,
  options: Omit<Options, 'connections' | 'duration'>,
  seconds: { warmup: number; measure: number },
  serverPid?: number,
): Promise<Measurement> {
  if (seconds.warmup > 0) await autocannon({ ...options, connections: CONNECTIONS, duration: seconds.warmup });
  const cpuBefore = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: seconds.measure });
  const cpuAfter = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
  const measurement = toMeasurement(name, result, result.requests.average);
  const answered = result['2xx'] + result.non2xx;
  if (cpuBefore !== undefined && cpuAfter !== undefined && answered > 0) {
    measurement.cpuMicrosPerRequest = ((cpuAfter - cpuBefore) * 1e6) / answered;
  }
  return measurement;
}

/**
 * A fixed number of requests, each with its own body (single-use codes). The rate is the
 * successful count over the wall time, since the last second is partial. With the server's pid,
 * its CPU time over the run is reported per request.
 */
export async function measureBatch(
  name: string,
  options: Omit<Options, 'connections'> & { amount: number },
  serverPid?: number,
): Promise<Measurement> {
  const cpuBefore = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
  const started = performance.now();
  let lastResponse = started;
  const run = autocannon({ ...options, connections: CONNECTIONS });
  run.on('response', () => {
    lastResponse = performance.now();
  });
  const result = await run;
  // Up to the last answer: autocannon's own duration counts whole sampling ticks (a 2.2-s batch
  // would read as 3 s), and so does awaiting it.
  const seconds = (lastResponse - started) / 1000;
  const cpuAfter = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
  const measurement = toMeasurement(name, result, result['2xx'] / seconds);
  const answered = result['2xx'] + result.non2xx;
  if (cpuBefore !== undefined && cpuAfter !== undefined && answered > 0) {
    measurement.cpuMicrosPerRequest = ((cpuAfter - cpuBefore) * 1e6) / answered;
  }
  return measurement;
}

/** Percentile of an ascending array of latencies (nearest rank). */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * A closed loop of `concurrency` clients each running `flow` (several requests: a sign-in) again
 * and again for `seconds`. The rate is completed flows per second, p50/p99 the whole flow's
 * latency in ms, and the CPU per flow the server's over the run.
 */
export async function measureFlows(
  name: string,
  flow: () => Promise<void>,
  options: { concurrency: number; seconds: number },
  serverPid?: number,
): Promise<Measurement> {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const cpuBefore = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) {
        const flowStarted = performance.now();
        try {
          await flow();
          latencies.push(performance.now() - flowStarted);
        } catch (err) {
          const message = (err as Error).message.slice(0, 80);
          errors.set(message, (errors.get(message) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = serverPid === undefined ? undefined : processCpuSeconds(serverPid);
  latencies.sort((a, b) => a - b);
  const failed = [...errors.values()].reduce((a, b) => a + b, 0);
  const measurement: Measurement = {
    name,
    requestsPerSecond: latencies.length / elapsed,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    ok: latencies.length,
    failed,
    statuses: [`ok×${latencies.length}`, ...[...errors].map(([message, count]) => `"${message}"×${count}`)].join(' '),
  };
  const done = latencies.length + failed;
  if (cpuBefore !== undefined && cpuAfter !== undefined && done > 0) {
    measurement.cpuMicrosPerRequest = ((cpuAfter - cpuBefore) * 1e6) / done;
  }
  return measurement;
}
