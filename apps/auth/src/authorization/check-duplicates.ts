import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

/** OAuth 2.1 §3.1: "Request and response parameters MUST NOT be included more than once" (P-02, AZ-12). */
export function rejectDuplicates({ duplicates }: AssembledParams): void {
  if (duplicates.size > 0) {
    throw invalidRequest(`These parameters must not be provided more than once: ${[...duplicates].join(', ')}.`);
  }
}
