/** SQLite primary result codes that mean "the database cannot serve now", not "this request is wrong". */
const SQLITE_UNAVAILABLE = new Set([5, 6, 7, 8, 10, 11, 13, 14, 15]);

/**
 * D-10 / BF-RD-01: a failing session store is a 503 with Retry-After, never a 401 that would
 * send the SPA into a sign-in loop. Same rule as apps/auth/src/http/dependency-failure.ts.
 * TODO(issue 3): one typed error from packages/db would let both apps stop sniffing codes.
 */
export function isDatabaseFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const { code, errcode } = e as { code?: unknown; errcode?: unknown };
    if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && SQLITE_UNAVAILABLE.has(errcode & 0xff))
      return true;
  }
  return false;
}
