import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

/** ST-03, AZ-14: longer values are refused rather than reflected; 1,000 characters (ST-01) pass. */
export const MAX_STATE_LENGTH = 4096;

/** RFC 6749 Appendix A.5: state = 1*VSCHAR, VSCHAR = %x20-7E. */
export const VSCHAR = /^[\x20-\x7e]+$/;

/** A state that can be returned exactly as sent: at most MAX_STATE_LENGTH VSCHAR characters. */
export function isEchoableState(state: string): boolean {
  return state.length <= MAX_STATE_LENGTH && VSCHAR.test(state);
}

/**
 * The `state` that error and success redirects carry back: the value exactly as received
 * (ST-01, ST-02), or none when it was duplicated (P-02: node-oidc-provider omits it too),
 * too long or outside VSCHAR, since then there is no single well-formed value to return.
 */
export function echoableState({ params, duplicates }: AssembledParams): string | undefined {
  const state = params.state;
  if (duplicates.has('state') || state === undefined) return undefined;
  return isEchoableState(state) ? state : undefined;
}

/**
 * ST-03, ST-05: over-long state, or state with characters outside VSCHAR (non-ASCII, NUL,
 * CR/LF), is `invalid_request`; accepting it would mean returning something other than what
 * the client sent.
 */
export function checkState({ params }: AssembledParams): void {
  const state = params.state;
  if (state === undefined) return;
  if (state.length > MAX_STATE_LENGTH) throw invalidRequest(`state must be at most ${MAX_STATE_LENGTH} characters.`);
  if (!VSCHAR.test(state)) throw invalidRequest('state may contain only printable ASCII characters.');
}
