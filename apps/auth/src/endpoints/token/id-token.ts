import { accessTokenHash, ID_TOKEN_TTL_MS, type Client, type RedeemedCode } from '@latchkey/core';
import { signingKeysOf, type AuthDeps } from '../../deps.ts';

/** What a grant handler returns: the pair and, when it holds `openid`, whom its ID token is about. */
export type IssuedTokens = Pick<RedeemedCode, 'accessToken' | 'refreshToken' | 'expiresIn' | 'scopes' | 'idToken'>;

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The ID token of a code exchange or refresh whose access token holds `openid` (OI-01), signed
 * with the client's algorithm (OI-03: RS256 unless it registered ES256) by the key ring, whose
 * header names the key's `kid` in /.well-known/jwks.json. OI-02: `iss` is the issuer, `sub` the
 * user's id (never the email), `aud` the client, valid for ID_TOKEN_TTL_MS; `auth_time` the
 * sign-in, `nonce` the code's (OI-04), `at_hash` of the access token beside it (OI-05); `name`
 * with `profile`, `email` with `email` and `email_verified` false: addresses are not verified yet.
 * OI-14: `exp`, the signature under a published `kid` and the `nonce` are what the relying
 * parties' libraries check; each must be exactly right for them to accept it.
 */
export async function signIdToken(deps: AuthDeps, client: Client, issued: IssuedTokens): Promise<string | undefined> {
  if (!issued.idToken) return undefined;
  const { user, authTime, nonce } = issued.idToken;
  const iat = seconds(deps.clock.now());
  const claims = {
    iss: deps.config.auth.url,
    sub: user.id,
    aud: client.id,
    exp: iat + seconds(ID_TOKEN_TTL_MS),
    iat,
    ...(authTime !== null && { auth_time: seconds(authTime) }),
    ...(nonce !== null && { nonce }),
    at_hash: accessTokenHash(issued.accessToken),
    ...(issued.scopes.includes('profile') && { name: user.name }),
    ...(issued.scopes.includes('email') && { email: user.email, email_verified: false }),
  };
  return signingKeysOf(deps).sign(claims, client.idTokenAlg);
}
