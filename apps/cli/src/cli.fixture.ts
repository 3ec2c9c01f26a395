// Runs the admin CLI on its own temporary DATA_DIR, and in the node-pg project on its own empty
// PostgreSQL database (DATABASE_URL), which the CLI migrates itself. Shared by the CLI's test
// files. A run is the CLI's own runCli with only the sandbox's environment, its output captured:
// the same dispatch, configuration, database and printing as `node main.ts`, without starting
// Node and loading the stack for every call (that was a quarter of the test run). main.test.ts
// runs the real program as a child process (`createSandbox({ process: true })`).
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createDatabase, sqlitePathFor, type Db } from '@latchkey/db';
import { perFile } from '#test/support/per-file.ts';
import { withDatabase } from '#test/support/postgres-databases.ts';
import { testPostgresBin, testPostgresUrl } from '#test/support/test-database.ts';
import { runCli } from './run-cli.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

export const DAY = 24 * 60 * 60 * 1000;
export const OWNER = 'owner@example.test';
export const OTHER = 'other@example.test';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export interface CliSandbox {
  dataDir: string;
  /** The sandbox's PostgreSQL database (DATABASE_URL) in the node-pg project. */
  databaseUrl: string | undefined;
  run(args: string[], env?: Record<string, string>): Promise<Run>;
  /**
   * Everything the database holds: SQLite's main file and write-ahead log, or every row of
   * every PostgreSQL table as text.
   */
  databaseBytes(): Buffer;
  /** Whether a command created (and migrated) the database. */
  hasDatabase(): boolean;
  /** Opens the same database for a check through core, and closes it again. */
  withDb<T>(use: (db: Db) => Promise<T>): Promise<T>;
  remove(): void;
}

/**
 * psql against the node-pg project's cluster. Synchronous, so that the sandbox's helpers stay
 * synchronous on both engines.
 */
function psql(url: string, sql: string): string {
  const bin = testPostgresBin();
  if (bin === undefined) throw new Error('no PostgreSQL bin folder was provided to this project');
  const result = spawnSync(join(bin, 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], {
    encoding: 'utf8',
    env: { PGCONNECT_TIMEOUT: '10' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout;
}

/** A stream that keeps what is written to it, as text. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

function parseJson(stdout: string): unknown {
  try {
    return stdout === '' ? undefined : JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** The program itself in a child process: exit status, streams and all. */
function runProcess(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, json: parseJson(stdout) }));
  });
}

async function runInProcess(args: string[], env: Record<string, string>): Promise<Run> {
  const stdout = capture();
  const stderr = capture();
  const code = await runCli(args, { env, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text(), json: parseJson(stdout.text()) };
}

export function createSandbox(options: { process?: boolean } = {}): CliSandbox {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-cli-'));
  const cluster = testPostgresUrl();
  let databaseUrl: string | undefined;
  if (cluster !== undefined) {
    // Empty, not copied from the migrated template: the CLI's own migration runs as on a new server.
    const name = `lk_${randomBytes(8).toString('hex')}`;
    psql(cluster, `create database ${name} template template0`);
    databaseUrl = withDatabase(cluster, name);
  }
  let queue: Promise<unknown> = Promise.resolve();
  return {
    dataDir,
    databaseUrl,
    run(args, env = {}) {
      // Only what the configuration needs: nothing from the test runner's environment leaks in.
      const runEnv = {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
        ...env,
      };
      if (options.process) return runProcess(args, runEnv);
      // One at a time, as the tests' Promise.all of separate processes ran side by side:
      // node:sqlite is synchronous, and two runs on one thread waiting for each other's write
      // lock would only time out ("database is locked").
      const result = queue.then(() => runInProcess(args, runEnv));
      queue = result.catch(() => undefined);
      return result;
    },
    databaseBytes() {
      if (databaseUrl !== undefined) {
        return Buffer.from(
          psql(
            databaseUrl,
            "select query_to_xml(format('select * from %I', tablename), true, false, '') from pg_tables where schemaname = 'public'",
          ),
        );
      }
      return Buffer.concat(
        readdirSync(dataDir)
          .filter((name) => name.startsWith('latchkey.sqlite'))
          .map((name) => readFileSync(join(dataDir, name))),
      );
    },
    hasDatabase() {
      if (databaseUrl === undefined) return existsSync(sqlitePathFor(dataDir));
      return Number(psql(databaseUrl, "select count(*) from pg_tables where schemaname = 'public'").trim()) > 0;
    },
    async withDb(use) {
      const db = createDatabase(
        databaseUrl === undefined
          ? { sqlitePath: sqlitePathFor(dataDir) }
          : { url: databaseUrl, poolMax: 2, timeoutMs: 5000 },
      );
      try {
        return await use(db);
      } finally {
        await db.destroy();
      }
    },
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl !== undefined && cluster !== undefined) {
        psql(cluster, `drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
      }
    },
  };
}

/**
 * Two users most tests need, created through the CLI itself. One after the other: the first
 * run creates and migrates the database, and two processes migrating one fresh SQLite file at
 * the same moment can collide (migrateToLatest retries once; PostgreSQL takes an advisory lock).
 */
export async function seedUsers(sandbox: CliSandbox): Promise<void> {
  expectSuccess(
    await sandbox.run([
      'user',
      'create',
      '--email',
      OWNER,
      '--password',
      'correct horse olive',
      '--name',
      'Olive Owner',
    ]),
  );
  expectSuccess(
    await sandbox.run([
      'user',
      'create',
      '--email',
      OTHER,
      '--password',
      'battery staple lagoon',
      '--name',
      'Otto Other',
    ]),
  );
}

/** The sandbox of one test file, with the two users (seedUsers): made before its first test, removed after its last. */
export function useSeededSandbox(): CliSandbox {
  return perFile(
    async () => {
      const sandbox = createSandbox();
      await seedUsers(sandbox).catch((error: unknown) => {
        sandbox.remove();
        throw error;
      });
      return { sandbox };
    },
    ({ sandbox }) => sandbox.remove(),
  ).sandbox;
}

/** A failure: the given status, nothing on stdout, one line on stderr, no stack trace. */
export function expectFailure(run: Run, code: 1 | 2, pattern?: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
  expect(run.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  if (pattern) expect(run.stderr).toMatch(pattern);
}

/** Success: exit 0, nothing on stderr, one JSON document on stdout. */
export function expectSuccess(run: Run): void {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  expect(run.json).toBeDefined();
}
