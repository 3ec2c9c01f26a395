import { formatScope, LATCHKEY_API_AUDIENCE, storedScopes, type Scope } from '@latchkey/contracts';
import { digest, randomPoolBytes } from '@latchkey/credentials';
import type { AuthorizationCodesTable, Db } from '@latchkey/db';
import type { Client } from '../clients/client.ts';
import type { Clock } from '../clock.ts';
import { InvalidGrant, InvalidRequest, InvalidTarget } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import type { IdTokenSubject } from '../oidc/id-token.ts';
import { findUserById } from '../users/users.service.ts';
import { issueTokenPair, type TokenLifetimes } from '../tokens/issue-token-pair.ts';
import type { TokenPair } from '../tokens/token.ts';
import { consumeAuthorizationCode, findAuthorizationCodeByHash, insertAuthorizationCode } from './codes.repository.ts';
import { insertGrant, markGrantRevoked } from './grants.repository.ts';
import { isValidPkceValue, verifierMatchesChallenge } from './pkce.ts';

/** D-3: a code lives 10 minutes. */
export const CODE_TTL_MS = 10 * 60 * 1000;

export interface CodeRequest {
  client: Client;
  userId: string;
  redirectUri: string;
  codeChallenge: string | null;
  /** What the user approved (SC-04): held by the grant, the code and the first access token; the client's default when unset (SC-03). */
  scopes?: readonly Scope[] | undefined;
  /** OI-04: the request's `nonce`, which the code's ID token echoes. */
  nonce?: string | undefined;
  /** OI-02: when the user last signed in (ms since the epoch), the ID token's `auth_time`. */
  authTime?: number | undefined;
  /** RS-03: the resource server the request named (resolveResource); the Latchkey API when unset. */
  audience?: string | undefined;
}

/**
 * Issues an authorization code under a new grant. 256 bits from the CSPRNG, base64url
 * (AC-09); only its SHA-256 digest is stored.
 */
export async function issueAuthorizationCode(db: Db, clock: Clock, request: CodeRequest): Promise<string> {
  const code = randomPoolBytes(32).toString('base64url');
  const now = clock.now();
  const grantId = newId(IdPrefix.grant);
  await db.transaction().execute(async (trx) => {
    const scope = formatScope(request.scopes ?? request.client.scopes);
    const audience = request.audience ?? LATCHKEY_API_AUDIENCE;
    await insertGrant(trx, {
      id: grantId,
      user_id: request.userId,
      client_id: request.client.id,
      created_at: now,
      revoked_at: null,
      scope,
      audience,
    });
    await insertAuthorizationCode(trx, {
      id: newId(IdPrefix.code),
      code_hash: digest(code),
      grant_id: grantId,
      client_id: request.client.id,
      user_id: request.userId,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
      consumed_at: null,
      scope,
      nonce: request.nonce ?? null,
      auth_time: request.authTime ?? null,
      audience,
    });
  });
  return code;
}

/** A redeemed code's pair and, when its scopes hold `openid`, what its ID token needs (OI-02). */
export interface RedeemedCode extends TokenPair {
  idToken: IdTokenSubject | null;
}

export interface CodeRedemption {
  /** The authenticated client making the token request. */
  client: Client;
  code: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  /** RS-04: the audience the request's `resource` names (resolveResource); it must be the code's. */
  audience?: string | undefined;
}

/**
 * Exchanges a code for a token pair (RFC 6749 §4.1.3, RFC 7636 §4.6).
 *
 * Order matters. Checks that show the request itself is wrong (other client, other
 * redirect URI, a verifier without a challenge) come first and change nothing, so a
 * malformed replay cannot be used to revoke someone's grant (OAuth 2.1 §4.1.3). Then the
 * code is consumed atomically; a code that was already consumed revokes everything issued
 * from it (RFC 6749 §4.1.2, AC-02). PKCE is verified after consumption so that a wrong
 * verifier burns the code (PK-02).
 */
export async function redeemAuthorizationCode(
  db: Db,
  clock: Clock,
  lifetimes: TokenLifetimes,
  input: CodeRedemption,
): Promise<RedeemedCode> {
  const row = await findAuthorizationCodeByHash(db, digest(input.code));
  // TK-AC-02: never issued; AC-07: a deleted user's codes were deleted with it; AC-06, TK-AC-05: another
  // client's code is refused before anything is consumed, so it stays usable by its own.
  if (!row || row.client_id !== input.client.id) throw new InvalidGrant('The authorization code is invalid.');
  // TK-AC-07: authorize always requires redirect_uri, so the exchange must repeat it.
  if (input.redirectUri === undefined) throw new InvalidRequest('redirect_uri is required.');
  // RU-12, TK-AC-06, CE-04: only the URI used at authorize, even if another is registered; checked before consuming.
  if (input.redirectUri !== row.redirect_uri)
    throw new InvalidGrant('redirect_uri does not match the authorization request.');
  // PK-04: a verifier for a code issued without a challenge is a PKCE downgrade.
  if (row.code_challenge === null && input.codeVerifier !== undefined) {
    throw new InvalidRequest('code_verifier was sent but the authorization request had no code_challenge.');
  }
  // RS-04 (RFC 8707 §2.2): `resource` at the exchange must name the code's resource server; checked before consuming.
  if (input.audience !== undefined && input.audience !== row.audience) {
    throw new InvalidTarget('resource is not the resource server this code is for.');
  }
  const now = clock.now();
  // AC-05, TK-AC-03: a code is refused once its 10 minutes are over.
  if (row.consumed_at === null && Number(row.expires_at) <= now)
    throw new InvalidGrant('The authorization code expired.');
  const scopes = storedScopes(row.scope);
  const idToken = scopes.includes('openid') ? await idTokenSubjectOf(db, row) : null;

  const outcome = await db.transaction().execute(async (trx) => {
    // TK-AC-04: a replay finds the code consumed and never gets a second pair, however often it is tried.
    if (!(await consumeAuthorizationCode(trx, row.id, now))) return 'replayed' as const;
    if (row.code_challenge !== null) {
      // PK-03: a code with a challenge needs its verifier; without one, no token.
      if (input.codeVerifier === undefined || !verifierMatchesChallenge(input.codeVerifier, row.code_challenge)) {
        return 'pkce_failed' as const;
      }
    }
    return issueTokenPair(trx, now, lifetimes, {
      grantId: row.grant_id,
      clientId: input.client.id,
      clientName: input.client.name,
      userId: row.user_id,
      scopes,
      audience: row.audience,
    });
  });
  if (outcome === 'replayed') {
    await markGrantRevoked(db, row.grant_id, now);
    throw new InvalidGrant('The authorization code was already used.');
  }
  if (outcome === 'pkce_failed') throw new InvalidGrant('code_verifier does not match the code_challenge.');
  return { ...outcome, idToken };
}

/** OI-02, OI-04: the code's user, when they signed in, and the nonce its request carried. */
async function idTokenSubjectOf(db: Db, row: AuthorizationCodesTable): Promise<IdTokenSubject> {
  const user = await findUserById(db, row.user_id);
  // AC-07: a deleted user's codes go with it; this is the moment between.
  if (!user) throw new InvalidGrant('The authorization code is invalid.');
  return { user, nonce: row.nonce ?? null, authTime: row.auth_time === null ? null : Number(row.auth_time) };
}

export { isValidPkceValue };

/**
 * Revokes the grants under which these codes were issued (given as SHA-256 digests, never the
 * codes), with every access and refresh token issued from them (DD-4). Used when a browser signs
 * out of the authorization server: the portal signed in through that browser's session must
 * not outlive it (docs/sign-out.md, SO-09). Unknown digests are ignored; idempotent.
 */
export async function revokeGrantsOfCodes(db: Db, clock: Clock, codeDigests: readonly string[]): Promise<void> {
  for (const codeHash of new Set(codeDigests)) {
    const row = await findAuthorizationCodeByHash(db, codeHash);
    if (row) await markGrantRevoked(db, row.grant_id, clock.now());
  }
}
