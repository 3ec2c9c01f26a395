import { digest, parseToken, TokenPrefix } from '@latchkey/credentials';
import type { Executor } from '@latchkey/db';
import { markGrantRevoked } from '../authorization/grants.repository.ts';
import type { Client } from '../clients/client.ts';
import type { Clock } from '../clock.ts';
import { findAccessTokenRowByHash, findRefreshTokenByHash } from './tokens.repository.ts';

/**
 * RFC 7009 token revocation for an authenticated client. Revoking either token of a pair
 * revokes the grant, so both stop working (RFC 7009 §2.1 SHOULD). Unknown tokens and tokens
 * of another client are ignored without an error (RFC 7009 §2.2), which also avoids a
 * token-validity oracle (RV-08).
 */
export async function revokeTokenForClient(db: Executor, clock: Clock, client: Client, token: string): Promise<void> {
  const prefix = parseToken(token);
  const hash = digest(token);
  let grantId: string | null | undefined;
  if (prefix === TokenPrefix.refreshToken) {
    const row = await findRefreshTokenByHash(db, hash);
    if (row?.client_id === client.id) grantId = row.grant_id;
  } else if (prefix === TokenPrefix.accessToken) {
    const row = await findAccessTokenRowByHash(db, hash);
    if (row?.client_id === client.id) grantId = row.grant_id;
  }
  if (grantId) await markGrantRevoked(db, grantId, clock.now());
}
