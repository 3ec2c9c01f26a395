import { isValidPkceValue, type Client } from '@latchkey/core';
import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

/**
 * RFC 7636 §4.3 with S256 only (OAuth 2.1, RFC 9700 §2.1.1). `plain`, or a challenge with no
 * method (which RFC 7636 defaults to `plain`), is refused (PK-05); so are a method without a
 * challenge (PK-07), a challenge outside 43*128 unreserved characters (PK-06), and no
 * challenge from a client that requires PKCE (PK-08) or from a public client (PC-02): with no
 * secret, the verifier is all that binds its code to the app that asked for it (RFC 8252 §8.1).
 */
export function checkPkce(client: Client, { params }: AssembledParams): string | undefined {
  const challenge = params.code_challenge;
  const method = params.code_challenge_method;
  if (challenge === undefined) {
    if (method !== undefined) throw invalidRequest('code_challenge_method was sent without a code_challenge.');
    if (client.public) throw invalidRequest('A public client must use PKCE: code_challenge is required.');
    if (client.requirePkce) throw invalidRequest('This client must use PKCE: code_challenge is required.');
    return undefined;
  }
  if (method !== 'S256') throw invalidRequest('code_challenge_method must be S256.');
  if (!isValidPkceValue(challenge))
    throw invalidRequest('code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~].');
  return challenge;
}
