// One Latchkey server as a separate operating-system process (`node apps/<app>/src/main.ts`),
// the way it runs in production behind a load balancer. Its stdout and stderr go straight to a
// log file (no piping through the test process, which is busy generating load); the harness
// stops it by its pid and only by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type ServerKind = 'auth' | 'api' | 'bff';

/** The repository root: every entry point and the CLI are run from here. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const ENTRY: Record<ServerKind, string> = {
  auth: 'apps/auth/src/main.ts',
  api: 'apps/api/src/main.ts',
  bff: 'apps/bff/src/main.ts',
};

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** e.g. `auth-1`. */
  readonly name: string;
  readonly kind: ServerKind;
  readonly pid: number;
  readonly port: number;
  /** Where this instance itself listens (not the public URL the instances advertise). */
  readonly url: string;
  readonly logFile: string;
  /** Settles when the process exits, for whatever reason. */
  readonly exited: Promise<ProcessExit>;
  /** Still running: no exit seen. */
  alive(): boolean;
  /** Everything the process wrote so far (JSON log lines, and anything on stderr). */
  readLog(): string;
  /** The last `lines` lines of the log, for failure messages. */
  logTail(lines?: number): string;
  /** Resolves when GET /readyz answers 200; rejects if the process exits or `timeoutMs` passes. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<ProcessExit>;
}

export interface SpawnServerOptions {
  name: string;
  kind: ServerKind;
  port: number;
  env: Record<string, string>;
  logFile: string;
}

/** Every server this test process started and that still runs: killed if the test process exits first. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killLeftoversOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Node's own binary: the one running the tests (Node 24, type stripping on). */
function nodeBinary(): string {
  return process.execPath;
}

/** Runs `node <entry>` with exactly `env` (plus PATH and HOME), nothing inherited from the test runner. */
export function spawnNode(entry: string, args: string[], env: Record<string, string>, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  try {
    return spawn(nodeBinary(), [entry, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
}

export function spawnServer(options: SpawnServerOptions): ServerProcess {
  const child = spawnNode(ENTRY[options.kind], [], options.env, options.logFile);
  if (child.pid === undefined) throw new Error(`${options.name} did not start`);
  const pid = child.pid;
  killLeftoversOnExit();
  running.add(child);
  let exit: ProcessExit | undefined;
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      resolve(exit);
    });
  });
  const url = `http://127.0.0.1:${options.port}`;

  const readLog = () => {
    try {
      return readFileSync(options.logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const logTail = (lines = 30) => readLog().split('\n').slice(-lines).join('\n');

  return {
    name: options.name,
    kind: options.kind,
    pid,
    port: options.port,
    url,
    logFile: options.logFile,
    exited,
    alive: () => exit === undefined,
    readLog,
    logTail,
    async waitReady(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (exit !== undefined) {
          throw new Error(`${options.name} exited (${exit.code ?? exit.signal}) before it was ready:\n${logTail()}`);
        }
        try {
          // Readiness, as a load balancer checks it: listening, and its database and Redis reachable.
          const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
          await response.arrayBuffer();
          if (response.status === 200) return;
        } catch {
          // Not listening yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${options.name} was not ready within ${timeoutMs} ms:\n${logTail()}`);
    },
    async stop(graceMs = 5000) {
      if (exit !== undefined) return exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (exit === undefined) child.kill('SIGKILL');
      }, graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
