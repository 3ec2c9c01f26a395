// Throwaway redis-server processes for integration and reliability tests, on loopback ports. Each one is a child of the test process, in the
// foreground, so the test holds its pid and can stop, kill (SIGKILL) or hang (SIGSTOP) it,
// then start it again on the same port. Nothing is persisted: `--save "" --appendonly no`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { reservedPort } from './loopback.ts';

export interface RedisServer {
  /** The running process's pid (changes on restart). */
  readonly pid: number;
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops it (resuming it first if it was SIGSTOPped) and waits for the exit. Idempotent. */
  stop(): Promise<void>;
  /** Sends a signal to the process as it is: SIGKILL (crash), SIGSTOP (hang), SIGCONT (resume). */
  kill(signal: NodeJS.Signals): void;
  /** Stops it if it still runs, then starts a fresh (empty) one on the same port. */
  restart(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 3_000;
const INSTALL_LOCK = join(tmpdir(), 'latchkey-redis-install.lock');

/** Every server this process started and has not stopped: killed when the process exits. */
const running = new Set<ChildProcess>();
/** Their folders, removed then too. */
const folders = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function locate(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin', '/usr/sbin'];
  return dirs
    .filter(Boolean)
    .map((dir) => join(dir, 'redis-server'))
    .find(isExecutable);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Test files run in parallel processes: only one of them runs apt-get, the others wait for it.
 * A lock older than ten minutes is left over from a crashed run and is taken over.
 */
async function withInstallLock<T>(run: () => T): Promise<T> {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(INSTALL_LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(INSTALL_LOCK).mtimeMs > 10 * 60_000) rmdirSync(INSTALL_LOCK);
      } catch {
        // Released meanwhile: try again.
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${INSTALL_LOCK}`);
      await sleep(500);
    }
  }
  try {
    return run();
  } finally {
    rmdirSync(INSTALL_LOCK);
  }
}

function aptGet(args: string[]): void {
  process.stderr.write(`[test/support/redis] apt-get ${args.join(' ')}\n`);
  const result = spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw new Error(`apt-get ${args[0]} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`apt-get ${args[0]} failed with exit code ${String(result.status)}`);
}

let located: Promise<string> | undefined;

/**
 * The redis-server binary: on PATH or in /usr/bin; installed from Debian when missing and this
 * process is root (CI); otherwise a clear error saying what to install.
 */
export function findRedisServer(): Promise<string> {
  located ??= (async () => {
    const found = locate();
    if (found) return found;
    if (process.getuid?.() !== 0 || !isExecutable('/usr/bin/apt-get')) {
      throw new Error(
        'redis-server was not found on PATH or in /usr/bin. Install it (Debian/Ubuntu: `apt-get install -y redis-server`) to run the Redis tests.',
      );
    }
    return withInstallLock(() => {
      const again = locate(); // another test process may have installed it meanwhile
      if (again) return again;
      process.stderr.write('[test/support/redis] redis-server is missing: installing it with apt-get\n');
      aptGet(['update']);
      aptGet(['install', '-y', '--no-install-recommends', 'redis-server']);
      const installed = locate();
      if (!installed) throw new Error('apt-get installed redis-server but no redis-server binary was found');
      process.stderr.write(`[test/support/redis] installed ${installed}\n`);
      return installed;
    });
  })();
  located.catch(() => {
    located = undefined; // let a later call try again
  });
  return located;
}

/**
 * Whether the redis-server with process id `pid` answers on `port`. Another worker's server
 * that took the port between the probe and our bind would answer a PING too (issue 13), so
 * this reads `INFO server` and checks its process_id.
 */
function answersAs(port: number, pid: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      // A bulk string: $<length>\r\n<text>\r\n; anything else (-LOADING, -ERR) is not ready.
      const header = /^\$(\d+)\r\n/.exec(answer);
      if (!header) {
        if (answer.includes('\r\n')) done(false);
        return;
      }
      if (answer.length < header[0].length + Number(header[1]) + 2) return;
      done(answer.includes(`\r\nprocess_id:${pid}\r\n`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

interface Started {
  child: ChildProcess;
  output: () => string;
}

function spawnServer(binary: string, port: number, dir: string): Started {
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--protected-mode',
      'yes',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return { child, output: () => output };
}

async function waitUntilReady(started: Started, port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const { child } = started;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `redis-server on port ${port} exited (${String(child.exitCode ?? child.signalCode)}): ${started.output()}`,
      );
    }
    if (await answersAs(port, child.pid!)) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer within ${READY_TIMEOUT_MS} ms`);
    }
    await sleep(20);
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGCONT'); // a SIGSTOPped server would never act on SIGTERM
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited(child);
  clearTimeout(timer);
}

/**
 * Starts redis-server on a free loopback port and waits until it answers. The caller
 * stops it (`stop()`); anything left running is killed when the test process exits.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = await findRedisServer();
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-redis-'));
  folders.add(dir);
  let port = 0;
  let started: Started | undefined;
  // The free port may be taken between the probe and redis-server's bind: try a few.
  for (let attempt = 0; started === undefined; attempt += 1) {
    port = await reservedPort();
    const candidate = spawnServer(binary, port, dir);
    try {
      await waitUntilReady(candidate, port);
      started = candidate;
    } catch (err) {
      await stopChild(candidate.child);
      if (attempt >= 4) {
        rmSync(dir, { recursive: true, force: true });
        folders.delete(dir);
        throw err;
      }
    }
  }
  let current: Started = started;
  let removed = false;
  const stop = async () => {
    await stopChild(current.child);
  };
  return {
    get pid() {
      return current.child.pid!;
    },
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await stop();
      if (!removed) {
        removed = true;
        rmSync(dir, { recursive: true, force: true });
        folders.delete(dir);
      }
    },
    kill(signal) {
      current.child.kill(signal);
    },
    async restart() {
      await stop();
      mkdirSync(dir, { recursive: true });
      folders.add(dir);
      removed = false;
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (;;) {
        const next = spawnServer(binary, port, dir);
        try {
          await waitUntilReady(next, port);
          current = next;
          return;
        } catch (err) {
          await stopChild(next.child);
          // The old socket may linger for a moment after a SIGKILL; the port is ours to retry.
          if (Date.now() > deadline) throw err;
          await sleep(100);
        }
      }
    },
  };
}
