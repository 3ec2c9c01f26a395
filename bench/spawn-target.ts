import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const START_TIMEOUT_MS = 60_000;

export interface RunningTarget {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/targets/<name>.target.ts in its own Node process (with `nodeArgs`, e.g. --cpu-prof) and waits for its port. */
export async function spawnTarget(
  name: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<RunningTarget> {
  const file = fileURLToPath(new URL(`./targets/${name}.target.ts`, import.meta.url));
  // The benchmark decides which database and Redis each target uses, not the caller's shell:
  // a DATABASE_URL left in it would quietly move the SQLite runs to PostgreSQL.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, [...nodeArgs, file], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    // bench/run.ts starts its eight servers at once: on 2 cores busy with other work, loading
    // them all takes longer than any one of them alone.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before listening`));
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
