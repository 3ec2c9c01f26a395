// Judging traffic that ran across a dependency outage (D-10): every answer is
// either what the request deserves, a 503 with Retry-After (the dependency is down), or a
// violation; and, once the dependency is back, how long until the answers are right again.
import { readFileSync } from 'node:fs';
import type { Sample } from './load-generator.ts';
import type { ServerProcess } from './server-process.ts';

export type Verdict = 'ok' | 'unavailable' | 'violation';

/** 503 with a Retry-After header: the one acceptable answer while a dependency is down (D-10). */
export function isUnavailable(sample: Sample): boolean {
  return sample.status === 503 && sample.retryAfter !== undefined && sample.retryAfter !== '';
}

/** `ok(sample)` says whether the answer is the one the request deserves when all is well. */
export function judge(sample: Sample, ok: (sample: Sample) => boolean): Verdict {
  if (ok(sample)) return 'ok';
  if (isUnavailable(sample)) return 'unavailable';
  return 'violation';
}

export interface Recovery {
  /** From the dependency's return to the first right answer sent after it (ms). */
  firstOkMs: number | undefined;
  /**
   * From the dependency's return until the answers stay right: the completion of the last
   * wrong answer (0 when none came after the return).
   */
  errorFreeAfterMs: number;
  /** Right answers sent after the return, out of all sent after it. */
  okAfter: number;
  sentAfter: number;
}

/** `backAt` is a performance.now() instant, comparable with Sample.sentMono. */
export function recoveryAfter(samples: readonly Sample[], backAt: number, ok: (s: Sample) => boolean): Recovery {
  const after = samples.filter((s) => s.sentMono + s.latencyMs >= backAt);
  const firstOk = after.filter((s) => s.sentMono >= backAt && ok(s)).sort((a, b) => a.sentMono - b.sentMono)[0];
  const lastWrong = Math.max(0, ...after.filter((s) => !ok(s)).map((s) => s.sentMono + s.latencyMs - backAt));
  return {
    firstOkMs: firstOk === undefined ? undefined : Math.round(firstOk.sentMono + firstOk.latencyMs - backAt),
    errorFreeAfterMs: Math.round(lastWrong),
    okAfter: after.filter((s) => s.sentMono >= backAt && ok(s)).length,
    sentAfter: after.filter((s) => s.sentMono >= backAt).length,
  };
}

/** Resident memory of a process in MiB, from /proc (Linux), for the leak check of §5.1. */
export function residentMemoryMiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Log lines of a process that say it failed in a way no request should cause: a fatal log
 * (pino level 60, e.g. "uncaught exception: exiting"), an uncaught or unhandled error, or a
 * raw stack trace on stderr. Errors logged while answering 503 (level 50) are expected.
 */
export function crashLines(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => {
      if (line.trim() === '') return false;
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string };
        return (entry.level ?? 0) >= 60 || /uncaught|unhandled/i.test(entry.msg ?? '');
      } catch {
        return /error|uncaught|unhandled/i.test(line);
      }
    })
    .slice(0, 5);
}

/**
 * No process crashes under a fault: the instances that exited, and the fatal lines of those still
 * running; `{ exited: [], fatal: {} }` when all is well.
 */
export function crashReport(servers: readonly ServerProcess[]): { exited: string[]; fatal: Record<string, string[]> } {
  const fatal: Record<string, string[]> = {};
  for (const server of servers) {
    const lines = crashLines(server.readLog());
    if (lines.length > 0) fatal[server.name] = lines.map((line) => line.slice(0, 400));
  }
  return { exited: servers.filter((s) => !s.alive()).map((s) => s.name), fatal };
}
