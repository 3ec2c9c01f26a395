import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

/**
 * OAuth 2.1 §3.1: "Request and response parameters MUST NOT be included more than once" (P-02, AZ-12).
 * `resource` is the exception: RFC 8707 §2 lets it repeat, so several are `invalid_target`, the
 * answer checkResource gives (RS-02), not `invalid_request`.
 */
export function rejectDuplicates({ duplicates }: AssembledParams): void {
  const repeated = [...duplicates].filter((name) => name !== 'resource');
  if (repeated.length > 0) {
    throw invalidRequest(`These parameters must not be provided more than once: ${repeated.join(', ')}.`);
  }
}
