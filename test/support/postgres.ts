// A throwaway PostgreSQL cluster for tests (initdb refuses root: it runs as user postgres):
// initdb in a temp folder, one postmaster on a free loopback port as a child process of this
// one, stopped by pid and its folder removed. The vitest global setup starts one for the
// node-pg project; fault tests start their own and stop, restart, freeze or kill them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabaseAt, prepareTemplateAt, TEMPLATE } from './postgres-databases.ts';
import { postgresBinDir } from './postgres-install.ts';
import { reservedPort } from './loopback.ts';
import { postgresAccount, signalServer, sleep, tempBase } from './postgres-process.ts';

export {
  borrowDatabaseAt,
  createDatabaseAt,
  dropDatabaseAt,
  prepareTemplateAt,
  recycleDatabaseAt,
  withDatabase,
} from './postgres-databases.ts';
export { postgresBinDir } from './postgres-install.ts';

export type ShutdownMode = 'fast' | 'immediate' | 'kill';

export interface PostgresCluster {
  /** The postmaster's pid (a new one after a restart). */
  readonly pid: number;
  readonly port: number;
  /** The temp folder: data/, the socket folder and server.log. */
  readonly folder: string;
  /** The folder of initdb, postgres and psql. */
  readonly bin: string;
  /** A URL of a database of this cluster (`postgres`, the maintenance database, by default). */
  url(database?: string): string;
  /**
   * A new empty database with every migration applied (a copy of a template migrated once
   * per cluster), or without any schema when `migrated` is false. Returns its URL.
   */
  createDatabase(options?: { migrated?: boolean }): Promise<string>;
  /** Creates (once) and migrates the template that createDatabase copies. */
  prepareTemplate(): Promise<void>;
  /** Takes the server down and keeps its data; `start()` brings it back on the same port. */
  shutdown(mode?: ShutdownMode): Promise<void>;
  /** Starts the server again after `shutdown` (or a SIGKILL), on the same port and data. */
  start(): Promise<void>;
  /** shutdown(mode) then start(). */
  restart(mode?: ShutdownMode): Promise<void>;
  /**
   * Sends a signal to the postmaster and every backend: SIGSTOP freezes the whole server
   * (connections stay open, nothing answers), SIGCONT thaws it, SIGKILL crashes it.
   */
  kill(signal: 'SIGSTOP' | 'SIGCONT' | 'SIGKILL'): void;
  /** The server's log so far (for failure messages). */
  log(): string;
  /** Stops the server (by pid) and removes the folder. Idempotent. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** max_connections; 200 by default (every test system opens a pool of up to 10). */
  maxConnections?: number;
  /** shared_buffers; 32MB by default (many small test databases). The bench sizes it like a server. */
  sharedBuffers?: string;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

// Every cluster this process started, so an exit (a crashed test run) still stops them.
const live = new Set<{ pid: () => number | undefined; folder: string }>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const cluster of live) {
      const pid = cluster.pid();
      if (pid !== undefined) signalServer(pid, 'SIGKILL');
      rmSync(cluster.folder, { recursive: true, force: true });
    }
  });
}

/**
 * Connects to the maintenance database until the server answers (or it exits, or time runs out).
 * The server must be ours (its data directory): another worker's cluster that took the port
 * between the probe and our bind would otherwise pass for it (issue 13).
 */
async function waitUntilReady(url: string, dataDir: string, child: ChildProcess, readLog: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`postgres exited during start-up (${child.exitCode ?? child.signalCode}):\n${readLog()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ data_directory: string }>('show data_directory');
      if (realpathSync(rows[0]!.data_directory) !== realpathSync(dataDir)) {
        throw new Error(`port taken by another PostgreSQL (${rows[0]!.data_directory}): could not bind`);
      }
      return;
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(
          `postgres did not accept connections within ${READY_TIMEOUT_MS} ms: ${(err as Error).message}\n${readLog()}`,
        );
      }
    } finally {
      await client.end().catch(() => {});
    }
    await sleep(50);
  }
}

/**
 * Starts a new cluster: initdb (trust authentication; it listens on 127.0.0.1 only) and one
 * postmaster without durability (fsync, synchronous_commit and full_page_writes off).
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const account = postgresAccount();
  const folder = mkdtempSync(join(tempBase(account), 'latchkey-pg-'));
  const dataDir = join(folder, 'data');
  const socketDir = join(folder, 'socket');
  const logFile = join(folder, 'server.log');
  mkdirSync(socketDir);
  if (account) {
    chownSync(folder, account.uid, account.gid);
    chownSync(socketDir, account.uid, account.gid);
  }
  const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '(no log)');

  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' };
  const initdbArgs = [
    join(bin, 'initdb'),
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    // Byte order for text, as SQLite's default BINARY collation sorts.
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ];
  const initdb = account
    ? spawnSync('runuser', ['-u', 'postgres', '--', ...initdbArgs], { encoding: 'utf8', env })
    : spawnSync(initdbArgs[0]!, initdbArgs.slice(1), { encoding: 'utf8', env });
  if (initdb.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed (${initdb.status ?? initdb.signal}): ${initdb.stderr}${initdb.stdout}`);
  }

  let port = 0;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let stopped = false;
  /** Set by kill('SIGKILL') until the exit is seen, so that an immediate start() waits for it. */
  let dying = false;
  const entry = {
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    folder,
  };
  live.add(entry);
  installExitHook();

  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

  const launch = async (): Promise<void> => {
    const logFd = openSync(logFile, 'a');
    const proc = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        socketDir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        `max_connections=${options.maxConnections ?? 200}`,
        '-c',
        `shared_buffers=${options.sharedBuffers ?? '32MB'}`,
        '-c',
        'autovacuum=off',
      ],
      {
        env,
        stdio: ['ignore', logFd, logFd],
        // Its own session: a Ctrl-C of the test run does not reach it; stop() and the exit hook do.
        detached: true,
        ...(account ? { uid: account.uid, gid: account.gid } : {}),
      },
    );
    closeSync(logFd);
    child = proc;
    dying = false;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    await waitUntilReady(url(), dataDir, proc, readLog);
  };

  const signalAll = (signal: NodeJS.Signals) => {
    const pid = entry.pid();
    if (pid !== undefined) signalServer(pid, signal);
  };

  const shutdown = async (mode: ShutdownMode = 'fast') => {
    if (entry.pid() === undefined) return;
    // A frozen server must run again to shut down.
    signalAll('SIGCONT');
    if (mode === 'kill') signalAll('SIGKILL');
    else process.kill(child!.pid!, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS);
    });
    const outcome = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      signalAll('SIGKILL');
      await exited;
    }
  };

  const start = async () => {
    if (stopped) throw new Error('this cluster was stopped for good');
    if (dying) await exited;
    if (entry.pid() !== undefined) return;
    // After a crash the backends of the old postmaster may hold its shared memory for a moment.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await launch();
        return;
      } catch (err) {
        await shutdown('kill');
        if (attempt >= 5) throw err;
        await sleep(200 * attempt);
      }
    }
  };

  // A free port can be taken between the probe and postgres's bind: try another.
  for (let attempt = 1; ; attempt += 1) {
    port = await reservedPort();
    try {
      await launch();
      break;
    } catch (err) {
      await shutdown('kill');
      if (attempt >= 3 || !/could not (bind|create listen socket)/i.test(readLog())) {
        live.delete(entry);
        rmSync(folder, { recursive: true, force: true });
        throw err;
      }
    }
  }

  let template: Promise<void> | undefined;
  const prepareTemplate = () => (template ??= prepareTemplateAt(url()));

  return {
    get pid() {
      const pid = entry.pid();
      if (pid === undefined) throw new Error('the PostgreSQL server is not running');
      return pid;
    },
    port,
    folder,
    bin,
    url,
    async createDatabase({ migrated = true } = {}) {
      if (migrated) await prepareTemplate();
      return createDatabaseAt(url(), migrated ? TEMPLATE : 'template0');
    },
    prepareTemplate,
    shutdown,
    start,
    async restart(mode: ShutdownMode = 'fast') {
      await shutdown(mode);
      await start();
    },
    kill(signal) {
      if (signal === 'SIGKILL' && entry.pid() !== undefined) dying = true;
      signalAll(signal);
    },
    log: readLog,
    async stop() {
      if (stopped) return;
      stopped = true;
      await shutdown('fast');
      live.delete(entry);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
