import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Adapts Node 24's built-in `node:sqlite` to the better-sqlite3-shaped interface that
 * Kysely's SqliteDialect expects (DD-6: no native build). Statements are cached
 * per SQL text because Kysely prepares on every query.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #path: string;
  readonly #statements = new Map<string, SqliteStatement>();
  /** A second, read-only connection for the hot lookups (readOne); opened on first use. */
  #reader: DatabaseSync | undefined;
  #closed = false;
  readonly #readerStatements = new Map<string, StatementSync>();

  constructor(path: string) {
    // The busy timeout must be in force before the first statement: a second process opening
    // a fresh file while the first switches it to WAL would otherwise fail at once.
    this.#path = path;
    this.#db = new DatabaseSync(path, { timeout: 5000 });
    this.#db.exec('PRAGMA journal_mode = WAL');
    this.#db.exec('PRAGMA synchronous = NORMAL');
    this.#db.exec('PRAGMA foreign_keys = ON');
  }

  close(): void {
    this.#closed = true;
    this.#statements.clear();
    this.#readerStatements.clear();
    if (this.#reader?.isOpen) this.#reader.close();
    if (this.#db.isOpen) this.#db.close();
  }

  /**
   * OB-21: one row of a read-only query, run synchronously on a connection of its own, without
   * Kysely's driver (its connection mutex and promise hops cost about 4 µs of the API's token
   * check). Its own connection, so it reads only committed data, never the inside of a write
   * transaction the main connection has open; each call is its own read transaction (DD-5: a
   * committed revocation is seen by the next call). Undefined for an in-memory database, whose
   * second connection would be another database, and once closed: callers then take the Kysely
   * path, which answers a closed database as an outage (D-10).
   */
  readOne<Row>(sql: string, parameters: readonly SQLInputValue[]): Row | undefined | typeof NO_DIRECT_READ {
    if (this.#closed || this.#path === ':memory:') return NO_DIRECT_READ;
    if (this.#reader === undefined) {
      this.#reader = new DatabaseSync(this.#path, { timeout: 5000, readOnly: true });
    }
    let statement = this.#readerStatements.get(sql);
    if (statement === undefined) {
      statement = this.#reader.prepare(sql);
      if (this.#readerStatements.size > 50) this.#readerStatements.clear();
      this.#readerStatements.set(sql, statement);
    }
    return statement.get(...parameters) as Row | undefined;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = wrap(this.#db.prepare(sql));
      if (this.#statements.size > 500) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** readOne's answer when it cannot read directly (an in-memory database). */
export const NO_DIRECT_READ = Symbol('latchkey.noDirectRead');

function toInput(values: ReadonlyArray<unknown>): SQLInputValue[] {
  return values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as SQLInputValue)));
}

function wrap(statement: StatementSync): SqliteStatement {
  const reader = statement.columns().length > 0;
  return {
    reader,
    all: (parameters) => statement.all(...toInput(parameters)),
    run: (parameters) => {
      const result = statement.run(...toInput(parameters));
      return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
    },
    iterate: (parameters) => statement.iterate(...toInput(parameters)),
  };
}
