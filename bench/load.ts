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
 * successful count over the wall time, since the last second is partial.
 */
export async function measureBatch(name: string, options: Omit<Options, 'connections'> & { amount: number }): Promise<Measurement> {
  const result = await autocannon({ ...options, connections: CONNECTIONS });
  return toMeasurement(name, result, result['2xx'] / result.duration);
}
