import { isDatabaseUnavailable } from '@latchkey/db';
import { DependencyUnavailableError } from './dependency-unavailable.ts';

/**
 * D-10: a failing dependency (SQLite, PostgreSQL, Redis) is a 503 with Retry-After, never a
 * 4xx that would make a client drop valid credentials. What counts as "the database cannot
 * serve now" on either engine (and a socket error on the way to any dependency) is decided in
 * one place, @latchkey/db's isDatabaseUnavailable.
 */
export function isDependencyFailure(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof DependencyUnavailableError) return true;
  }
  return false;
}
