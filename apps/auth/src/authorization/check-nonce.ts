import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';
import { VSCHAR } from './check-state.ts';

/** OI-04: longer nonces are refused rather than stored; libraries send 22 to 64 characters. */
export const MAX_NONCE_LENGTH = 512;

/**
 * OI-04: the `nonce` (OpenID Connect Core §3.1.2.1) is stored with the code and echoed exactly in
 * its ID token, so only a value that can be echoed is taken: at most MAX_NONCE_LENGTH printable
 * ASCII characters, else `invalid_request` on the redirect (twice is P-02's, rejectDuplicates).
 */
export function checkNonce({ params }: AssembledParams): string | undefined {
  const nonce = params.nonce;
  if (nonce === undefined) return undefined;
  if (nonce.length > MAX_NONCE_LENGTH) throw invalidRequest(`nonce must be at most ${MAX_NONCE_LENGTH} characters.`);
  if (!VSCHAR.test(nonce)) throw invalidRequest('nonce may contain only printable ASCII characters.');
  return nonce;
}
