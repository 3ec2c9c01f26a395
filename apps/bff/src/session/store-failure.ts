import { isDependencyFailure } from '@latchkey/http';
import { SessionStoreUnavailable } from '../http/bff.errors.ts';

/**
 * A session store that cannot serve (its database or Redis is down, BF-RD-01) as the one typed
 * 503. Anything else thrown there is a bug and stays what it is: a 500 (issue 16).
 */
export function storeFailure(err: unknown): unknown {
  if (err instanceof SessionStoreUnavailable || !isDependencyFailure(err)) return err;
  return new SessionStoreUnavailable('The portal is temporarily unavailable. Try again in a few seconds.', {
    cause: err,
  });
}

/** Runs a session-store query; a dependency failure becomes SessionStoreUnavailable. */
export async function inStore<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    throw storeFailure(err);
  }
}
