import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

/**
 * OI-17: `max_age` (OpenID Connect Core §3.1.2.1), the most seconds since the user last entered
 * credentials that the client accepts: digits only (0 included, which always asks), else
 * invalid_request. Ten digits are more than any session lasts.
 */
export function checkMaxAge({ params }: AssembledParams): number | undefined {
  const maxAge = params.max_age;
  if (maxAge === undefined) return undefined;
  if (!/^\d{1,10}$/.test(maxAge)) throw invalidRequest('max_age must be a whole number of seconds.');
  return Number(maxAge);
}

/** OI-17: a sign-in made `maxAge` seconds ago or earlier is too old (so max_age=0 always asks). */
export function signInTooOld(authenticatedAt: number | undefined, maxAge: number | undefined, now: number): boolean {
  if (maxAge === undefined) return false;
  return authenticatedAt === undefined || now - authenticatedAt >= maxAge * 1000;
}
