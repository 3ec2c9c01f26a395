import { formatScope } from '@latchkey/contracts';
import type { TokenPair } from '@latchkey/core';

export interface TokenResponseBody {
  token_type: 'Bearer';
  expires_in: string | number;
  access_token: string;
  refresh_token: string;
  scope: string;
  /** OI-01: only when the access token holds `openid`. */
  id_token?: string;
}

/**
 * RFC 6749 §5.1 in the shape the documented interface (docs/integrating.md) shows: a Bearer pair of
 * token68-safe tokens (TK-OK-01). `expires_in` is the access token's own lifetime (TK-OK-03), as a
 * string of decimal digits, the type the service's documentation gives it (D-1, TK-OK-02);
 * EXPIRES_IN_AS_NUMBER switches it to the JSON number strict RFC 6749 clients expect. openid-client 6
 * takes either (CL-08). `scope` is the access token's scopes, space-delimited in registry order (RFC 6749
 * §5.1, SC-04): always sent, so a client never has to guess whether a refresh narrowed it. `id_token`
 * (OpenID Connect Core §3.1.3.3) only with `openid`: without it the documented answer is unchanged (OI-01).
 */
export function presentTokenResponse(
  pair: TokenPair,
  idToken: string | undefined,
  expiresInAsNumber: boolean,
): TokenResponseBody {
  return {
    token_type: 'Bearer',
    expires_in: expiresInAsNumber ? pair.expiresIn : String(pair.expiresIn),
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    scope: formatScope(pair.scopes),
    ...(idToken !== undefined && { id_token: idToken }),
  };
}
