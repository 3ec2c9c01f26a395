// A server as production runs it: `node apps/<name>/src/main.ts` in its own process, configured
// only through its environment. Its JSON log lines (stdout) and stderr are collected so a test
// can wait for a line and check what the process said; it is stopped by its pid only.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ServerName = 'auth' | 'api' | 'bff';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly pid: number;
  /** stdout, line by line (JSON log lines). */
  readonly stdout: string[];
  readonly stderr: () => string;
  readonly exited: Promise<Exit>;
  /** stdout lines parsed as JSON (others skipped). */
  records(): Array<Record<string, unknown>>;
  /** Resolves with the first log record matching `msg`, rejects after `timeoutMs` or on exit. */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Polls GET <url>/healthz until 200. */
  waitHealthy(url: string, timeoutMs?: number): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL if still running (cleanup after a failed assertion). */
  kill(): void;
}

/** Runs `node <entry>` from the repository root with exactly `env` (plus PATH and HOME). */
export function spawnEntry(entry: string, env: Record<string, string>): ServerProcess {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${entry} did not start`);
  const stdout: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    stdout.push(...parts.filter(Boolean));
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    // 'close': the process has exited and its last lines have been read.
    child.once('close', (code, signal) => {
      if (partial) stdout.push(partial);
      exit = { code, signal };
      resolve(exit);
    });
  });
  const records = () =>
    stdout.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const until = async <T>(
    probe: () => Promise<T | undefined> | T | undefined,
    what: string,
    timeoutMs: number,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (exit !== undefined)
        throw new Error(
          `${entry} exited (${exit.code ?? exit.signal}) before ${what}:\n${stderr}\n${stdout.slice(-20).join('\n')}`,
        );
      if (Date.now() > deadline)
        throw new Error(`${entry}: no ${what} within ${timeoutMs} ms:\n${stderr}\n${stdout.slice(-20).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    pid: child.pid,
    stdout,
    stderr: () => stderr,
    exited,
    records,
    waitForLog: (msg, timeoutMs = 10_000) =>
      until(() => records().find((r) => r.msg === msg), `log "${msg}"`, timeoutMs),
    waitHealthy: (url, timeoutMs = 20_000) =>
      until(
        async () => {
          try {
            const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
            await response.arrayBuffer();
            return response.status === 200 ? true : undefined;
          } catch {
            return undefined;
          }
        },
        '/healthz 200',
        timeoutMs,
      ).then(() => undefined),
    signal: (signal) => {
      if (exit === undefined) process.kill(child.pid!, signal);
    },
    kill: () => {
      if (exit === undefined) child.kill('SIGKILL');
    },
  };
}

export function spawnServer(name: ServerName, env: Record<string, string>): ServerProcess {
  return spawnEntry(`apps/${name}/src/main.ts`, env);
}
