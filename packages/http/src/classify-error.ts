import { DomainError } from '@latchkey/core';
import { bodyReadError } from './body-read-error.ts';
import { isDependencyFailure } from './dependency-failure.ts';
import { HttpError } from './http-error.ts';

/** Seconds a client should wait after a 503 (D-10), on every surface. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * What went wrong, in the five kinds every surface answers differently in shape but alike in
 * meaning (issue 16). Each surface keeps only its renderer (OAuth JSON, account JSON, GraphQL,
 * HTML page):
 * - `domain`: a rule of core refused the request (the error carries its status: 400, 401,
 *   404, 409);
 * - `http`: an edge refused it and says how (the error carries its status and code);
 * - `input`: the body could not be read (400, 413, 415; HD-02);
 * - `dependency`: the database or Redis cannot serve now: 503 with Retry-After, never a 4xx
 *   that would make a client drop a valid credential (D-10);
 * - `bug`: anything else, a 500, logged at error level with its stack and never retried as an
 *   outage.
 */
export type ErrorKind =
  | { kind: 'domain'; error: DomainError }
  | { kind: 'http'; error: HttpError }
  | { kind: 'input'; status: 400 | 413 | 415 }
  | { kind: 'dependency' }
  | { kind: 'bug' };

export function classifyError(err: unknown): ErrorKind {
  if (err instanceof DomainError) return { kind: 'domain', error: err };
  if (err instanceof HttpError) return { kind: 'http', error: err };
  // Before the dependency check: a client that aborts its upload fails with ECONNABORTED and
  // status 400, the client's doing, not an outage.
  const input = bodyReadError(err);
  if (input) return { kind: 'input', status: input.status };
  if (isDependencyFailure(err)) return { kind: 'dependency' };
  return { kind: 'bug' };
}
