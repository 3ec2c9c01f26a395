import { coversScopes, storedScopes, type Scope } from '@latchkey/contracts';
import { digest, hasTokenShape, TokenPrefix } from '@latchkey/credentials';
import type { Db } from '@latchkey/db';
import { findAuthTimeOfGrant } from '../authorization/codes.repository.ts';
import { markGrantRevoked } from '../authorization/grants.repository.ts';
import type { Client } from '../clients/client.ts';
import type { Clock } from '../clock.ts';
import type { IdTokenSubject } from '../oidc/id-token.ts';
import { findUserById } from '../users/users.service.ts';
import { InvalidGrant, InvalidScope, InvalidTarget } from '../errors.ts';
import { issueTokenPair, type TokenLifetimes } from './issue-token-pair.ts';
import type { TokenPair } from './token.ts';
import {
  claimGraceReuse,
  claimRotationOfChild,
  consumeRefreshToken,
  findRefreshTokenByHash,
  revokeGrantAccessTokens,
} from './tokens.repository.ts';

export interface RefreshPolicy extends TokenLifetimes {
  /**
   * DD-4's reuse grace window in seconds: 0 or absent, strict (any reuse revokes the family).
   * The servers take it from REFRESH_REUSE_GRACE_SECONDS (default 30).
   */
  refreshReuseGraceSeconds?: number;
}

/** A refreshed pair and, when the new access token holds `openid`, what its ID token needs (OI-06). */
export interface RefreshedPair extends TokenPair {
  idToken: IdTokenSubject | null;
}

/**
 * Refresh with rotation (RFC 6749 §6, RFC 9700 §4.14.2, DD-4). Every use consumes the refresh
 * token in one conditional update and issues a new pair in the same transaction; the grant's
 * earlier access tokens are revoked.
 *
 * Reuse of a consumed refresh token revokes the whole family (RT-02, RT-06), except inside the
 * grace window (RG-01): the token was consumed less than `refreshReuseGraceSeconds` ago, it was
 * never honoured again before, and none of the tokens rotated from it has been redeemed (so only
 * the immediate predecessor, never an older generation: RG-03). Then the same client gets a
 * fresh pair on the same grant and nothing is revoked, so an application that refreshes from two
 * requests at once keeps working from either answer (RG-02).
 *
 * The window honours a token again once, and the pairs it forks cannot both live on (HD-07):
 * redeeming a token records on its parent which child was redeemed, so redeeming a sibling after
 * that is reuse, and so is a grace reuse of the parent. Without these marks a stolen token
 * presented inside the window started a chain of its own that rotated for ever beside the app's.
 * Both marks are conditional updates of the parent's row, inside the transaction.
 */
export async function refreshTokens(
  db: Db,
  clock: Clock,
  policy: RefreshPolicy,
  client: Client,
  refreshToken: string,
  /** SC-04: the `scope` of the request, parsed; a subset of the grant's narrows the new access token. */
  requestedScopes?: readonly Scope[],
  /** RS-05: the audience the request's `resource` names (resolveResource); it must be the grant's. */
  requestedAudience?: string,
): Promise<RefreshedPair> {
  // TK-RF-02: an unknown or malformed token, RT-07 and TK-RF-05: another client's, are invalid_grant.
  if (!hasTokenShape(refreshToken, TokenPrefix.refreshToken)) throw new InvalidGrant('The refresh token is invalid.');
  const row = await findRefreshTokenByHash(db, digest(refreshToken));
  if (!row || row.client_id !== client.id) throw new InvalidGrant('The refresh token is invalid.');
  // RT-09, TK-RF-02: a grant revoked by any path (its token revoked on the API tokens page) ends its refresh.
  if (row.grant_revoked_at !== null) throw new InvalidGrant('The refresh token was revoked.');
  const now = clock.now();
  // RT-11: unused past REFRESH_TOKEN_TTL_SECONDS; a rotation starts a new period (the child has its own expiry).
  if (row.consumed_at === null && Number(row.expires_at) <= now) throw new InvalidGrant('The refresh token expired.');
  const granted = storedScopes(row.grant_scope);
  // SC-04 (RFC 6749 §6): a refresh may ask for less than the grant, never more; nothing is consumed.
  if (requestedScopes !== undefined && !coversScopes(granted, requestedScopes)) {
    throw new InvalidScope('The requested scope is wider than what was granted.');
  }
  // RS-05 (RFC 8707 §2.2): a refresh may name the grant's resource server, never another; nothing is consumed.
  if (requestedAudience !== undefined && requestedAudience !== row.grant_audience) {
    throw new InvalidTarget('resource is not the resource server this grant is for.');
  }
  const graceMs = (policy.refreshReuseGraceSeconds ?? 0) * 1000;
  const grant = {
    grantId: row.grant_id,
    clientId: client.id,
    clientName: client.name,
    userId: row.user_id,
    parentRefreshTokenId: row.id,
    audience: row.grant_audience,
    scopes: requestedScopes === undefined || requestedScopes.length === 0 ? granted : requestedScopes,
  };
  const idToken = grant.scopes.includes('openid') ? await idTokenSubjectOf(db, row.user_id, row.grant_id) : null;

  const outcome = await db.transaction().execute(async (trx) => {
    // RT-01, RT-03: one conditional update decides the single winner, which gets a new, different pair.
    if (await consumeRefreshToken(trx, row.id, now)) {
      // A sibling of this token (forked by a grace reuse) was redeemed first: reuse (HD-07).
      if (row.parent_id !== null && !(await claimRotationOfChild(trx, row.parent_id, row.id))) return 'reused' as const;
      await revokeGrantAccessTokens(trx, row.grant_id, now);
      return issueTokenPair(trx, now, policy, grant);
    }
    if (graceMs > 0 && (await claimGraceReuse(trx, row.id, now - graceMs, now))) {
      return issueTokenPair(trx, now, policy, grant);
    }
    return 'reused' as const;
  });
  if (outcome === 'reused') {
    // D-4, RT-04, RT-05: reuse after the window (or with it off) revokes the family, used successor or not.
    await markGrantRevoked(db, row.grant_id, now);
    throw new InvalidGrant('The refresh token was already used.');
  }
  return { ...outcome, idToken };
}

/**
 * OI-06 (OpenID Connect Core §12.2): the same user, and the original sign-in's auth_time, which
 * the grant's code holds; no nonce. Read before anything is consumed (IdTokenSubject).
 */
async function idTokenSubjectOf(db: Db, userId: string, grantId: string): Promise<IdTokenSubject> {
  const user = await findUserById(db, userId);
  if (!user) throw new InvalidGrant('The refresh token is invalid.');
  return { user, authTime: await findAuthTimeOfGrant(db, grantId), nonce: null };
}
