// Runs the admin CLI as operators do: a real child process (Node running main.ts) on its own
// temporary DATA_DIR. Shared by the CLI's test files.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createDatabase, sqlitePathFor, type Db } from '@latchkey/db';

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
  run(args: string[], env?: Record<string, string>): Promise<Run>;
  /** Every byte SQLite holds for the database: the main file and its write-ahead log. */
  databaseBytes(): Buffer;
  /** Opens the same database file for a check through core, and closes it again. */
  withDb<T>(use: (db: Db) => Promise<T>): Promise<T>;
  remove(): void;
}

export function createSandbox(): CliSandbox {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-cli-'));
  return {
    dataDir,
    run(args, env = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [MAIN, ...args], {
          // Only what the configuration needs: nothing from the test runner's environment leaks in.
          env: { NODE_ENV: 'test', DATA_DIR: dataDir, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => {
          let json: unknown;
          try {
            json = stdout === '' ? undefined : JSON.parse(stdout);
          } catch {
            json = undefined;
          }
          resolve({ code, stdout, stderr, json });
        });
      });
    },
    databaseBytes() {
      return Buffer.concat(
        readdirSync(dataDir)
          .filter((name) => name.startsWith('latchkey.sqlite'))
          .map((name) => readFileSync(join(dataDir, name))),
      );
    },
    async withDb(use) {
      const db = createDatabase({ sqlitePath: sqlitePathFor(dataDir) });
      try {
        return await use(db);
      } finally {
        await db.destroy();
      }
    },
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two users most tests need, created through the CLI itself. One after the other: the first
 * run creates and migrates the database, and two processes migrating one fresh file at the
 * same moment can collide (see the report on packages/db).
 */
export async function seedUsers(sandbox: CliSandbox): Promise<void> {
  expectSuccess(
    await sandbox.run(['user', 'create', '--email', OWNER, '--password', 'correct horse', '--name', 'Olive Owner']),
  );
  expectSuccess(
    await sandbox.run(['user', 'create', '--email', OTHER, '--password', 'battery staple', '--name', 'Otto Other']),
  );
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
