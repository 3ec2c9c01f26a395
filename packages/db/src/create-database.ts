import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './database.ts';
import { NodeSqliteDatabase } from './node-sqlite.ts';

export interface DatabaseOptions {
  /** A SQLite file path. */
  sqlitePath: string;
}

/** Opens the SQLite file (creating its folder). PostgreSQL arrives with DATABASE_URL in a later issue. */
export function createDatabase(options: DatabaseOptions): Kysely<Database> {
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
