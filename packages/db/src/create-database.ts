import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Config } from '@latchkey/config';
import type { Database } from './database.ts';
import type { SQLInputValue } from 'node:sqlite';
import { NO_DIRECT_READ, NodeSqliteDatabase } from './node-sqlite.ts';
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
  const database = new NodeSqliteDatabase(options.sqlitePath);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  direct.set(db, database);
  return db;
}

/** The SQLite databases under the Kysely instances createDatabase made (readDirect). */
const direct = new WeakMap<object, NodeSqliteDatabase>();

/**
 * OB-21: one row of a read-only, hand-compiled query straight from SQLite's own read connection
 * (NodeSqliteDatabase.readOne), when `db` is a SQLite database createDatabase opened; else
 * NO_DIRECT_READ and the caller runs the query through Kysely (PostgreSQL, a transaction, an
 * in-memory database, or a Kysely with plugins such as the tracing one).
 */
export function readDirect<Row>(
  db: object,
  sql: string,
  parameters: readonly SQLInputValue[],
): Row | undefined | typeof NO_DIRECT_READ {
  const database = direct.get(db);
  return database === undefined ? NO_DIRECT_READ : database.readOne<Row>(sql, parameters);
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
