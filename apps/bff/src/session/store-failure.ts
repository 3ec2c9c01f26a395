import { SessionStoreUnavailable } from '../http/bff.errors.ts';

/** Any failure of the sessions table, for whatever reason, as the one typed 503 (BF-RD-01). */
export function storeFailure(err: unknown): SessionStoreUnavailable {
  if (err instanceof SessionStoreUnavailable) return err;
  return new SessionStoreUnavailable('The portal is temporarily unavailable. Try again in a few seconds.', {
    cause: err,
  });
}

/** Runs a session-store query; a rejection becomes SessionStoreUnavailable. */
export async function inStore<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    throw storeFailure(err);
  }
}
