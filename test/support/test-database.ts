// The database a test runs on. In the `node` project: a SQLite file in the test's folder.
// In `node-pg`: a fresh database in the PostgreSQL cluster that the project's global setup
// (postgres.global-setup.ts) started for the whole run, copied from a migrated template.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseOptions, type Db, sqlitePathFor } from '@latchkey/db';
import { perFile } from './per-file.ts';
import { borrowDatabaseAt, createDatabaseAt, recycleDatabaseAt } from './postgres-databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The maintenance database of the node-pg project's cluster; absent elsewhere. */
    latchkeyPostgresUrl?: string;
    /** The cluster's bin folder (psql). */
    latchkeyPostgresBin?: string;
  }
}

export type Engine = 'sqlite' | 'postgres';

function provided<K extends 'latchkeyPostgresUrl' | 'latchkeyPostgresBin'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    // Imported outside a Vitest worker (a script): no cluster.
    return undefined;
  }
}

/** The cluster of this run, when the project runs on PostgreSQL. */
export function testPostgresUrl(): string | undefined {
  return provided('latchkeyPostgresUrl');
}

/** The bin folder of the cluster's PostgreSQL (for psql), when there is one. */
export function testPostgresBin(): string | undefined {
  return provided('latchkeyPostgresBin');
}

export function testEngine(): Engine {
  return testPostgresUrl() === undefined ? 'sqlite' : 'postgres';
}

export interface TestDatabase {
  engine: Engine;
  /**
   * Environment for loadConfig: DATABASE_URL on PostgreSQL (nothing on SQLite, where the
   * file lives under the caller's DATA_DIR).
   */
  env: Record<string, string>;
  /** How to open it directly, as the servers would with that configuration. */
  options: DatabaseOptions;
  open(): Db;
  /**
   * Gives the PostgreSQL database back to the run's free list, emptied (or drops it); call it
   * after closing every handle to it. The caller removes its own folder.
   */
  dispose(): Promise<void>;
}

/**
 * A new database for one test system. `migrated: false` gives an empty one (no schema) on
 * PostgreSQL; a SQLite file is always created empty on first open.
 */
export async function createTestDatabase(dataDir: string, { migrated = true } = {}): Promise<TestDatabase> {
  const cluster = testPostgresUrl();
  if (cluster === undefined) {
    const options = { sqlitePath: sqlitePathFor(dataDir) };
    return { engine: 'sqlite', env: {}, options, open: () => createDatabase(options), dispose: async () => {} };
  }
  // A recycled, emptied database from the run's free list when one is there (see postgres.ts).
  const url = migrated ? await borrowDatabaseAt(cluster) : await createDatabaseAt(cluster, 'template0');
  const options = { url, poolMax: 10, timeoutMs: 5000 };
  return {
    engine: 'postgres',
    env: { DATABASE_URL: url },
    options,
    open: () => createDatabase(options),
    dispose: () => recycleDatabaseAt(url),
  };
}

/**
 * A migrated database of one test file, without servers (per-file.ts): made before its first
 * test, closed and given back after its last.
 */
export function useTestDatabase(): Db {
  const dir = { path: '' };
  let database: TestDatabase | undefined;
  const dispose = async (db?: Db): Promise<void> => {
    await db?.destroy();
    await database?.dispose();
    rmSync(dir.path, { recursive: true, force: true });
  };
  return perFile(
    async () => {
      dir.path = mkdtempSync(join(tmpdir(), 'latchkey-db-'));
      database = await createTestDatabase(dir.path);
      const db = database.open();
      await migrateToLatest(db).catch(async (error: unknown) => {
        await dispose(db);
        throw error;
      });
      return { db };
    },
    ({ db }) => dispose(db),
  ).db;
}
