import { DomainError } from '@latchkey/core';

/**
 * A core call that failed for a reason other than the request itself: the database (or,
 * later, another dependency) could not answer. D-10 and TK-DB-01: this becomes 503 with
 * Retry-After, never `invalid_grant` or `invalid_client`, which would make a client throw
 * away a refresh token or a secret that is still valid.
 */
export class DependencyUnavailable extends Error {
  constructor(options: ErrorOptions) {
    super('A dependency of the authorization server failed.', options);
    this.name = 'DependencyUnavailable';
  }
}

/**
 * Runs a core service call. Core states every rule violation as a DomainError; anything else
 * thrown below it (a closed or busy database, a destroyed pool) is a dependency failure.
 */
export async function callCore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new DependencyUnavailable({ cause: err });
  }
}
