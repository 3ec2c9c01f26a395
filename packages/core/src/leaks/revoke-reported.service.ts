import { digest, parseToken, TokenPrefix } from '@latchkey/credentials';
import type { Executor } from '@latchkey/db';
import { recordSecurityEvent, type RequestOrigin } from '../audit/security-events.ts';
import { markGrantRevoked } from '../authorization/grants.repository.ts';
import type { Clock } from '../clock.ts';

/** The kinds of credential a report may revoke: what a leak exposes and Latchkey can take back. */
const REPORTABLE: ReadonlySet<string> = new Set([
  TokenPrefix.personalAccessToken,
  TokenPrefix.accessToken,
  TokenPrefix.refreshToken,
  TokenPrefix.clientSecret,
]);

/**
 * LK-01..LK-04: revokes every live Latchkey credential among `values`, as reported exposed by
 * anyone (a secret scanner, a stranger): a personal access token or an application's access token
 * (with its grant, so its refresh token dies too: RV-02), a refresh token (its grant), a client
 * secret (that secret only: the client and its users' tokens keep working). Each revocation is
 * recorded in its owner's security log as `token.reported` or `client.secret_reported`, by the
 * `reporter` from `origin`, in the same transaction. Values that are malformed, of another kind,
 * unknown or already dead change nothing; the caller learns nothing of which was which (LK-03).
 */
export async function revokeReportedCredentials(
  db: Executor,
  clock: Clock,
  values: readonly string[],
  origin: RequestOrigin,
): Promise<void> {
  const digests = new Map<string, string>();
  for (const value of new Set(values)) {
    const prefix = parseToken(value);
    if (prefix !== undefined && REPORTABLE.has(prefix)) digests.set(digest(value), prefix);
  }
  if (digests.size === 0) return;
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    for (const [hash, prefix] of digests) {
      if (prefix === TokenPrefix.clientSecret) await revokeReportedSecret(trx, hash, now, origin);
      else if (prefix === TokenPrefix.refreshToken) await revokeReportedRefreshToken(trx, hash, now, origin);
      else await revokeReportedAccessToken(trx, hash, now, origin);
    }
  });
}

async function revokeReportedAccessToken(trx: Executor, hash: string, now: number, origin: RequestOrigin) {
  const row = await trx
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'grant_id'])
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return;
  await trx.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', row.id).execute();
  if (row.grant_id !== null) await markGrantRevoked(trx, row.grant_id, now);
  await recordSecurityEvent(trx, {
    userId: row.user_id,
    type: 'token.reported',
    actor: 'reporter',
    origin,
    target: { type: 'access_token', id: row.id },
    at: now,
  });
}

async function revokeReportedRefreshToken(trx: Executor, hash: string, now: number, origin: RequestOrigin) {
  // A consumed refresh token still reported is treated as reuse would be: its whole grant goes.
  const row = await trx
    .selectFrom('refresh_tokens as r')
    .innerJoin('grants as g', 'g.id', 'r.grant_id')
    .select(['r.id', 'r.user_id', 'r.grant_id'])
    .where('r.token_hash', '=', hash)
    .where('r.expires_at', '>', now)
    .where('g.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return;
  await markGrantRevoked(trx, row.grant_id, now);
  await recordSecurityEvent(trx, {
    userId: row.user_id,
    type: 'token.reported',
    actor: 'reporter',
    origin,
    target: { type: 'refresh_token', id: row.id },
    at: now,
  });
}

async function revokeReportedSecret(trx: Executor, hash: string, now: number, origin: RequestOrigin) {
  const row = await trx
    .selectFrom('client_secrets as s')
    .innerJoin('clients as c', 'c.id', 's.client_id')
    .select(['s.id', 's.client_id', 'c.owner_id'])
    .where('s.secret_hash', '=', hash)
    .where((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', now)]))
    .executeTakeFirst();
  if (!row) return;
  // LK-02: that secret stops working now (SR-03's expiry, so the client's page still lists when it
  // ended); the client, its other secret and the tokens it obtained are untouched.
  await trx.updateTable('client_secrets').set({ expires_at: now }).where('id', '=', row.id).execute();
  if (row.owner_id === null) return;
  await recordSecurityEvent(trx, {
    userId: row.owner_id,
    type: 'client.secret_reported',
    actor: 'reporter',
    origin,
    target: { type: 'client_secret', id: row.id },
    at: now,
  });
}
