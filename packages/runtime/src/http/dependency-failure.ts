import { DependencyUnavailableError } from '../dependency-unavailable.ts';

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

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * D-10: a failing dependency (the database now, PostgreSQL or Redis later) is a 503 with
 * Retry-After, never a 4xx that would make a client drop valid credentials.
 * TODO(issue 4): packages/db should wrap these in one typed error so apps stop sniffing codes.
 */
export function isDependencyFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof DependencyUnavailableError) return true;
    const { code, errcode } = e as { code?: unknown; errcode?: unknown };
    if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && SQLITE_UNAVAILABLE.has(errcode & 0xff))
      return true;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}
