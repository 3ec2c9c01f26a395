import { digest, hasTokenShape, TokenPrefix } from '@latchkey/credentials';
import type { Db } from '@latchkey/db';
import { markGrantRevoked } from '../authorization/grants.repository.ts';
import type { Client } from '../clients/client.ts';
import type { Clock } from '../clock.ts';
import { InvalidGrant } from '../errors.ts';
import { issueTokenPair, type TokenLifetimes } from './issue-token-pair.ts';
import type { TokenPair } from './token.ts';
import { consumeRefreshToken, findRefreshTokenByHash, revokeGrantAccessTokens } from './tokens.repository.ts';

/**
 * Refresh with rotation (RFC 6749 §6, RFC 9700 §4.14.2, DD-4). Every use consumes the refresh
 * token in one conditional update and issues a new pair in the same transaction; the grant's
 * earlier access tokens are revoked. Strict reuse detection with no grace window (D-4):
 * presenting a consumed refresh token revokes the whole family (RT-02, RT-06), and of two
 * concurrent refreshes exactly one wins and the family is then revoked (RT-03).
 */
export async function refreshTokens(
  db: Db,
  clock: Clock,
  lifetimes: TokenLifetimes,
  client: Client,
  refreshToken: string,
): Promise<TokenPair> {
  if (!hasTokenShape(refreshToken, TokenPrefix.refreshToken)) throw new InvalidGrant('The refresh token is invalid.');
  const row = await findRefreshTokenByHash(db, digest(refreshToken));
  if (!row || row.client_id !== client.id) throw new InvalidGrant('The refresh token is invalid.');
  if (row.grant_revoked_at !== null) throw new InvalidGrant('The refresh token was revoked.');
  const now = clock.now();
  if (row.consumed_at === null && Number(row.expires_at) <= now) throw new InvalidGrant('The refresh token expired.');

  const outcome = await db.transaction().execute(async (trx) => {
    if (!(await consumeRefreshToken(trx, row.id, now))) return 'reused' as const;
    await revokeGrantAccessTokens(trx, row.grant_id, now);
    return issueTokenPair(trx, now, lifetimes, {
      grantId: row.grant_id,
      clientId: client.id,
      clientName: client.name,
      userId: row.user_id,
    });
  });
  if (outcome === 'reused') {
    await markGrantRevoked(db, row.grant_id, now);
    throw new InvalidGrant('The refresh token was already used.');
  }
  return outcome;
}
