import pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database[?sslmode=...] (DATABASE_URL). */
  url: string;
  /** The most connections this process opens (DATABASE_POOL_MAX). */
  poolMax: number;
  /**
   * DATABASE_TIMEOUT_MS: the longest a query waits for a connection (a new one may go on
   * opening for longer: CONNECT_TIMEOUT_FLOOR_MS), and the longest it runs, on the server (statement_timeout) and on the client
   * (query_timeout, for a server that stopped answering altogether: R-06).
   */
  timeoutMs: number;
  /** Shown in pg_stat_activity, to tell the servers and the CLI apart. */
  applicationName?: string;
  /** How long an unused connection stays open; 10 s by default. */
  idleTimeoutMs?: number;
  /**
   * Told about errors of idle connections (the server restarted or went away). They are
   * otherwise ignored: the pool drops the connection and the next query opens another.
   */
  onIdleError?: (err: Error) => void;
}

/** PostgreSQL's BIGINT (int8). Every time column is one; counts are too. */
const INT8_OID = 20;

/**
 * Integer milliseconds fit a JavaScript number exactly (2^53 ms is 285,000 years), so BIGINT
 * comes back as a number on PostgreSQL as it does on SQLite, and the domain never sees a
 * string. Set on this pool's clients only: the process-wide pg.types stay untouched.
 */
function typesWithInt8AsNumber(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, 'text', (value: string) => Number(value));
  return types;
}

/**
 * The server cancels a statement a little before the client would give up on it: a slow
 * query then ends with 57014 on a connection that stays usable, and the client's own
 * query_timeout (the full budget) only fires when the server does not answer at all.
 */
function serverStatementTimeout(timeoutMs: number): number {
  return Math.max(1, timeoutMs - Math.min(250, Math.floor(timeoutMs / 5)));
}

/**
 * How long one new connection may take to open, apart from how long a query waits for one
 * (DATABASE_TIMEOUT_MS, enforced by DiscardingPool). A server that was frozen or overloaded
 * answers its backlog of connection attempts in turn once it runs again: attempts given up
 * after a second would each be replaced by another, and the backlog would never drain.
 * Attempts that outlive their request join the pool when they open.
 */
const CONNECT_TIMEOUT_FLOOR_MS = 10_000;

export function createPostgresPool(options: PostgresOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: Math.max(options.timeoutMs, CONNECT_TIMEOUT_FLOOR_MS),
    idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
    statement_timeout: serverStatementTimeout(options.timeoutMs),
    query_timeout: options.timeoutMs,
    // A process that stops between the statements of a transaction (SIGSTOP, a debugger)
    // must not hold row locks for ever: the server ends such a session.
    idle_in_transaction_session_timeout: options.timeoutMs * 2,
    application_name: options.applicationName ?? 'latchkey',
    keepAlive: true,
    types: typesWithInt8AsNumber(),
  });
  // Without a listener an idle client's error (the server restarting) is an uncaught
  // 'error' event and ends the process.
  pool.on('error', (err) => options.onIdleError?.(err));
  // The server's goodbye can arrive in the same read as its welcome (a restart just as a
  // connection opens): pg emits 'error' while handing the client over, after pg-pool removed
  // its listener and before whoever checked it out could add one. A listener for the
  // client's whole life keeps that from ending the process; such a client is no longer
  // queryable, so its queries fail and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', ignoreHandedOverError));
  openPools.add(new WeakRef(pool));
  return pool;
}

/**
 * The pools createPostgresPool made, read by postgresPoolCounts; weakly held, so a pool that
 * was never ended (a test's) is not kept alive for it.
 */
const openPools = new Set<WeakRef<pg.Pool>>();

/** What this process's PostgreSQL connections are doing (OB-06's gauges). */
export interface PostgresPoolCounts {
  /** Connections checked out, running a query or a transaction. */
  inUse: number;
  /** Open connections waiting in the pool. */
  idle: number;
  /** Queries waiting for a connection: above 0 for long, the pool (DATABASE_POOL_MAX) is too small. */
  waiting: number;
}

/**
 * OB-06: the connections of every open pool of this process, summed (one per process in
 * production), read when Prometheus scrapes; undefined when there is none (SQLite). Ended
 * pools are forgotten here.
 */
export function postgresPoolCounts(): PostgresPoolCounts | undefined {
  let counts: PostgresPoolCounts | undefined;
  for (const ref of openPools) {
    const pool = ref.deref();
    if (pool === undefined || pool.ended) {
      openPools.delete(ref);
      continue;
    }
    counts ??= { inUse: 0, idle: 0, waiting: 0 };
    counts.inUse += pool.totalCount - pool.idleCount;
    counts.idle += pool.idleCount;
    counts.waiting += pool.waitingCount;
  }
  return counts;
}

function ignoreHandedOverError(): void {}

/** Raised for a query on a connection that an earlier client-side timeout gave up on. */
export class ConnectionAbandonedError extends Error {
  constructor() {
    super('the database connection was abandoned after a query timeout');
    this.name = 'ConnectionAbandonedError';
  }
}

/** pg's client-side query_timeout: the query may still be running, or the server hung. */
function isClientQueryTimeout(err: unknown): boolean {
  return err instanceof Error && err.message === 'Query read timeout';
}

/**
 * Statements with parameters run as named prepared statements, so PostgreSQL plans each query
 * text once per connection instead of on every call: the API's token lookup is a four-table
 * join whose planning costs about three times its execution. Kysely compiles a given query to
 * the same text every time; the cap bounds what varying texts (multi-row inserts) can add.
 */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

function statementNameFor(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `lk_${statementNames.size}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** A prepared `select *` whose table gained a column (a migration by another instance). */
function isStalePreparedPlan(err: unknown): boolean {
  return (err as { code?: unknown }).code === '0A000';
}

/**
 * What Kysely's PostgresDialect checks connections out of. pg keeps a connection whose query
 * hit query_timeout as if it were healthy, with the unanswered query still queued on it: the
 * next user would wait behind it (a rollback, another request). Such a connection fails
 * every later query at once and is destroyed on release instead of returning to the pool.
 */
export class DiscardingPool implements PostgresPool {
  readonly #pool: pg.Pool;
  readonly #acquireTimeoutMs: number;

  /** `acquireTimeoutMs`: how long a query waits for a connection (DATABASE_TIMEOUT_MS). */
  constructor(pool: pg.Pool, acquireTimeoutMs: number) {
    this.#pool = pool;
    this.#acquireTimeoutMs = acquireTimeoutMs;
  }

  get options(): object {
    return this.#pool.options;
  }

  /**
   * A connection within acquireTimeoutMs, or pg-pool's own "timeout exceeded" error. The wait
   * goes on in the pool after the caller gave up (a connection being opened finishes opening);
   * a connection that arrives late goes straight back to the pool.
   */
  #checkout(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        reject(new Error('timeout exceeded when trying to connect'));
      }, this.#acquireTimeoutMs);
      this.#pool.connect().then(
        (client) => {
          clearTimeout(timer);
          if (gaveUp) client.release();
          else resolve(client);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (!gaveUp) reject(err as Error);
        },
      );
    });
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.#checkout();
    let abandoned = false;
    // pg-pool listens for 'error' only on idle clients. A checked-out one whose server goes
    // away (a restart while a transaction is open) emits 'error' too, and with no listener
    // that would end the process; the query in progress, if any, fails on its own.
    const onError = () => {
      abandoned = true;
    };
    client.on('error', onError);
    const query = async (sql: string, parameters: ReadonlyArray<unknown>) => {
      if (abandoned) throw new ConnectionAbandonedError();
      const values = parameters as unknown[];
      const name = values.length > 0 ? statementNameFor(sql) : undefined;
      try {
        return name === undefined ? await client.query(sql, values) : await client.query({ name, text: sql, values });
      } catch (err) {
        if (isClientQueryTimeout(err)) abandoned = true;
        if (name !== undefined && isStalePreparedPlan(err)) {
          // The connection's prepared statements predate a schema change: run this one unprepared
          // and let the connection go, so the next one prepares against the new schema.
          abandoned = true;
          return await client.query(sql, values);
        }
        throw err;
      }
    };
    return {
      processID: (client as { processID?: number }).processID,
      query: query as unknown as PostgresPoolClient['query'],
      release: (destroy?: boolean) => {
        client.removeListener('error', onError);
        client.release(destroy === true || abandoned ? true : undefined);
      },
    };
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}
