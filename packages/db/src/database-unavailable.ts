import { isNetworkErrorCode } from './network-errors.ts';
import { ConnectionAbandonedError } from './postgres-pool.ts';

/** SQLite primary result codes that mean "the database cannot serve now", not "this request is wrong". */
const SQLITE_UNAVAILABLE = new Set([
  5, // SQLITE_BUSY
  6, // SQLITE_LOCKED
  7, // SQLITE_NOMEM
  8, // SQLITE_READONLY
  10, // SQLITE_IOERR
  11, // SQLITE_CORRUPT
  13, // SQLITE_FULL
  14, // SQLITE_CANTOPEN
  15, // SQLITE_PROTOCOL
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now. Class 08 (connection exception)
 * and class 53 (insufficient resources: disk full, out of memory, 53300 too many
 * connections) are matched by their prefix.
 */
const POSTGRES_UNAVAILABLE = new Set([
  '57014', // query_canceled: statement_timeout
  '57P01', // admin_shutdown: the server is stopping or restarting
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: still starting up, or in recovery
  '57P05', // idle_session_timeout
  '55P03', // lock_not_available: lock_timeout
  '25P03', // idle_in_transaction_session_timeout ended the session
  '25006', // read_only_sql_transaction: a write reached a standby (during a failover)
  '58000', // system_error (an I/O error on the server)
  '58030', // io_error
]);

/**
 * Messages of the pg driver (and pg-pool) that carry no code: the pool could not hand out a
 * connection in time, the connection died or a query got no answer within query_timeout.
 */
const POSTGRES_DRIVER_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /^Query read timeout$/,
  /^timeout expired$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * Kysely's answer once the database handle was destroyed (the instance is shutting down, or
 * its pool was closed under it): this instance cannot serve, another may. Both engines.
 */
const CLOSED_DATABASE_MESSAGES = [/^driver has already been destroyed$/];

function isUnavailableCause(e: Error): boolean {
  if (e instanceof ConnectionAbandonedError) return true;
  const { code, errcode } = e as { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR') return typeof errcode === 'number' && SQLITE_UNAVAILABLE.has(errcode & 0xff);
  if (typeof code === 'string') {
    if (isNetworkErrorCode(code) || POSTGRES_UNAVAILABLE.has(code)) return true;
    // SQLSTATEs are five characters; pg's DatabaseError carries one in `code`.
    if (code.length === 5 && (code.startsWith('08') || code.startsWith('53'))) return true;
  }
  return [...POSTGRES_DRIVER_MESSAGES, ...CLOSED_DATABASE_MESSAGES].some((pattern) => pattern.test(e.message));
}

/**
 * D-10: true when the error says the database (SQLite or PostgreSQL) cannot serve right now
 * (down, restarting, overloaded, too slow), so the caller answers 503 with Retry-After rather
 * than a 4xx that would make a client drop valid credentials. False for errors of the
 * request itself (a constraint violation, a syntax error). Follows `cause` chains and the
 * `errors` of an AggregateError (a refused connection to a host with several addresses).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const pending: unknown[] = [err];
  for (let seen = 0; pending.length > 0 && seen < 20; seen += 1) {
    const e = pending.shift();
    if (!(e instanceof Error)) continue;
    if (isUnavailableCause(e)) return true;
    if (e.cause !== undefined) pending.push(e.cause);
    if (e instanceof AggregateError) pending.push(...(e.errors as unknown[]));
  }
  return false;
}
