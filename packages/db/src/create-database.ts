import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Config } from '@latchkey/config';
import type { Database } from './database.ts';
import { NodeSqliteDatabase } from './node-sqlite.ts';
import { createPostgresPool, DiscardingPool, type PostgresOptions } from './postgres-pool.ts';

export interface SqliteOptions {
  /** A SQLite file path. */
  sqlitePath: string;
}

export type { PostgresOptions };

/** The embedded SQLite file, or a PostgreSQL server (DD-6). */
export type DatabaseOptions = SqliteOptions | PostgresOptions;

/**
 * Opens the database: SQLite over node:sqlite (creating the file's folder), or PostgreSQL
 * through a bounded pg pool. Repositories run the same Kysely queries on both.
 */
export function createDatabase(options: DatabaseOptions): Kysely<Database> {
  if ('url' in options) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new DiscardingPool(createPostgresPool(options), options.timeoutMs) }),
    });
  }
  if (options.sqlitePath !== ':memory:') {
    mkdirSync(join(options.sqlitePath, '..'), { recursive: true });
  }
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: new NodeSqliteDatabase(options.sqlitePath) }),
  });
}

/** The embedded database file under DATA_DIR. */
export function sqlitePathFor(dataDir: string): string {
  return join(dataDir, 'latchkey.sqlite');
}

/**
 * What the configuration asks for: PostgreSQL when DATABASE_URL is set, else the SQLite
 * file under DATA_DIR. `extra` names the process and hears about idle connection errors.
 */
export function databaseOptionsFor(
  config: Pick<Config, 'databaseUrl' | 'databasePoolMax' | 'databaseTimeoutMs' | 'dataDir'>,
  extra: Pick<PostgresOptions, 'applicationName' | 'onIdleError'> = {},
): DatabaseOptions {
  if (config.databaseUrl === undefined) return { sqlitePath: sqlitePathFor(config.dataDir) };
  return {
    url: config.databaseUrl,
    poolMax: config.databasePoolMax,
    timeoutMs: config.databaseTimeoutMs,
    ...extra,
  };
}
