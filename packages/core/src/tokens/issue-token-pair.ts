import { formatScope, type Scope } from '@latchkey/contracts';
import { digest, generateToken, lastFour, TokenPrefix } from '@latchkey/credentials';
import type { Executor } from '@latchkey/db';
import { recordDynamicClientUse } from '../clients/dynamic-clients.service.ts';
import { IdPrefix, newId } from '../ids.ts';
import type { TokenPair } from './token.ts';
import { insertAccessToken, insertRefreshToken } from './tokens.repository.ts';

export interface TokenLifetimes {
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}

export interface GrantRef {
  grantId: string;
  clientId: string;
  clientName: string;
  userId: string;
  /** The new access token's scopes: the grant's, or fewer when a refresh narrowed them (SC-04). */
  scopes: readonly Scope[];
  /** RS-03: the grant's resource server, the access token's audience. */
  audience: string;
  /** The refresh token this pair rotates (refresh grant); absent for a code exchange. */
  parentRefreshTokenId?: string;
}

/**
 * Mints an access and refresh token under a grant. Called inside the same transaction that
 * consumed the code or the previous refresh token, so the pair and the "used" mark commit
 * together or not at all. Every token a client gets passes here (the code exchange and
 * the refresh), so this is where a dynamic client's use is recorded (DR-16).
 */
export async function issueTokenPair(
  trx: Executor,
  now: number,
  lifetimes: TokenLifetimes,
  grant: GrantRef,
): Promise<TokenPair> {
  const accessToken = generateToken(TokenPrefix.accessToken);
  const refreshToken = generateToken(TokenPrefix.refreshToken);
  await insertAccessToken(trx, {
    id: newId(IdPrefix.accessToken),
    token_hash: digest(accessToken),
    kind: 'oauth',
    user_id: grant.userId,
    client_id: grant.clientId,
    grant_id: grant.grantId,
    name: grant.clientName,
    last4: lastFour(accessToken),
    created_at: now,
    expires_at: now + lifetimes.tokenTtlSeconds * 1000,
    revoked_at: null,
    last_used_at: null,
    scope: formatScope(grant.scopes),
    audience: grant.audience,
  });
  await insertRefreshToken(trx, {
    id: newId(IdPrefix.refreshToken),
    token_hash: digest(refreshToken),
    grant_id: grant.grantId,
    client_id: grant.clientId,
    user_id: grant.userId,
    created_at: now,
    expires_at: now + lifetimes.refreshTokenTtlSeconds * 1000,
    consumed_at: null,
    parent_id: grant.parentRefreshTokenId ?? null,
    grace_reused_at: null,
    used_child_id: null,
  });
  await recordDynamicClientUse(trx, grant.clientId, now);
  return { accessToken, refreshToken, expiresIn: lifetimes.tokenTtlSeconds, scopes: [...grant.scopes] };
}
