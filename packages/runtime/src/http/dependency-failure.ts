import { isDatabaseUnavailable } from '@latchkey/db';
import { DependencyUnavailableError } from '../dependency-unavailable.ts';

/** Socket errors of any dependency reached over the network (Redis, an upstream server). */
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
 * D-10: a failing dependency (SQLite, PostgreSQL, Redis) is a 503 with Retry-After, never a
 * 4xx that would make a client drop valid credentials. What counts as "the database cannot
 * serve now" on either engine is decided in one place, @latchkey/db's isDatabaseUnavailable.
 */
export function isDependencyFailure(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof DependencyUnavailableError) return true;
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}
