import { DomainError } from '@latchkey/core';
import { DependencyUnavailableError } from '@latchkey/runtime';

/**
 * Runs a core service call. Core states every rule violation as a DomainError; anything else
 * thrown below it (a closed or busy database, a destroyed pool) is a dependency failure. D-10
 * and TK-DB-01: that becomes 503 with Retry-After, never `invalid_grant` or `invalid_client`,
 * which would make a client throw away a refresh token or a secret that is still valid.
 */
export async function callCore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new DependencyUnavailableError('database', 'A dependency of the authorization server failed.', {
      cause: err,
    });
  }
}
