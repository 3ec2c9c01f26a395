import { CompiledQuery } from 'kysely';
import { NO_DIRECT_READ, readDirect } from '@latchkey/db';
import type { AccessTokensTable, Executor, RefreshTokensTable } from '@latchkey/db';

export async function insertAccessToken(db: Executor, row: AccessTokensTable): Promise<void> {
  await db.insertInto('access_tokens').values(row).execute();
}

export async function insertRefreshToken(db: Executor, row: RefreshTokensTable): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

export interface AccessTokenAuthRow {
  id: string;
  kind: 'pat' | 'oauth';
  user_id: string;
  client_id: string | null;
  created_at: number;
  expires_at: number;
  user_name: string;
  user_email: string;
  first_party: number | null;
  scope: string;
  audience: string;
}

/**
 * The hot-path lookup for every API call: one indexed read by digest that already excludes
 * revoked tokens, tokens of revoked grants and tokens of revoked clients (DD-5: no cache, so a
 * committed revocation is seen by the very next request). Expiry is checked by the caller's clock.
 */
function liveAccessTokenQuery(db: Executor, tokenHash: string) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('grants as g', 'g.id', 't.grant_id')
    .leftJoin('clients as c', 'c.id', 't.client_id')
    .select([
      't.id',
      't.kind',
      't.user_id',
      't.client_id',
      't.created_at',
      't.expires_at',
      'u.name as user_name',
      'u.email as user_email',
      'c.first_party',
      't.scope',
      't.audience',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('t.grant_id', 'is', null), eb('g.revoked_at', 'is', null)]))
    .where((eb) => eb.or([eb('t.client_id', 'is', null), eb('c.revoked_at', 'is', null)]));
}

/** The compiled SQL of the lookup, built once per database: compiling costs more than running it. */
const compiledLookups = new WeakMap<Executor, string>();

/**
 * The hot-path lookup for every API call: one indexed read by digest that already excludes
 * revoked tokens, tokens of revoked grants and tokens of revoked clients (DD-5: no cache, so a
 * committed revocation is seen by the very next request). Expiry is checked by the caller's clock.
 * So a token revoked in any way fails at once (GQ-09), and no request that starts after a
 * revocation commits succeeds, on any instance, under load (RV-04, R-01).
 */
export async function findLiveAccessTokenByHash(
  db: Executor,
  tokenHash: string,
): Promise<AccessTokenAuthRow | undefined> {
  let sql = compiledLookups.get(db);
  if (sql === undefined) {
    const compiled = liveAccessTokenQuery(db, '').compile();
    // The digest must be the only parameter for the cached SQL to be reused with a new one.
    if (compiled.parameters.length !== 1) throw new Error('unexpected parameters in the token lookup');
    sql = compiled.sql;
    compiledLookups.set(db, sql);
  }
  // OB-21: on the SQLite file, straight from its read connection; else through Kysely.
  const row = readDirect<AccessTokenAuthRow>(db, sql, [tokenHash]);
  if (row !== NO_DIRECT_READ) return row;
  const result = await db.executeQuery<AccessTokenAuthRow>(CompiledQuery.raw(sql, [tokenHash]));
  return result.rows[0];
}

/** True when a token with this digest was ever issued and not deleted, live or not (OB-02). */
export async function accessTokenExists(db: Executor, tokenHash: string): Promise<boolean> {
  const row = await db.selectFrom('access_tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row !== undefined;
}

export interface RefreshTokenRow extends RefreshTokensTable {
  grant_revoked_at: number | null;
  /** What the grant holds (SC-04): a refresh may narrow the new access token to less, never more. */
  grant_scope: string;
  /** RS-05: the resource server the grant is for; every token it mints has this audience. */
  grant_audience: string;
}

export async function findRefreshTokenByHash(db: Executor, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('grants as g', 'g.id', 'r.grant_id')
    .selectAll('r')
    .select(['g.revoked_at as grant_revoked_at', 'g.scope as grant_scope', 'g.audience as grant_audience'])
    .where('r.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * The one grace reuse a consumed refresh token may have (HD-07), as one conditional update: it
 * was consumed after `since`, was never honoured again, and no token rotated from it has been
 * redeemed. False for a second reuse, an older generation, or after the window.
 */
export async function claimGraceReuse(db: Executor, id: string, since: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ grace_reused_at: at })
    .where('id', '=', id)
    .where('consumed_at', '>', since)
    .where('grace_reused_at', 'is', null)
    .where('used_child_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records on the parent which of its children is being redeemed (HD-07), as one conditional
 * update: false when a sibling (a pair forked by a grace reuse) was redeemed first, which makes
 * this redemption reuse. Concurrent claims on one parent serialise on its row.
 */
export async function claimRotationOfChild(db: Executor, parentId: string, childId: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_child_id: childId })
    .where('id', '=', parentId)
    .where('used_child_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Refresh-token rotation's atomic step (DD-4): false when the token was already used. */
export async function consumeRefreshToken(db: Executor, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ consumed_at: at })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** On rotation the grant's earlier access tokens stop working: one live pair per grant. */
export async function revokeGrantAccessTokens(db: Executor, grantId: string, at: number): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('grant_id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function findAccessTokenRowByHash(
  db: Executor,
  tokenHash: string,
): Promise<AccessTokensTable | undefined> {
  return db.selectFrom('access_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findAccessTokenRowById(db: Executor, id: string): Promise<AccessTokensTable | undefined> {
  return db.selectFrom('access_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** True when this call revoked it; false when it already was (RV-07). */
export async function markAccessTokenRevoked(db: Executor, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface AccessTokenListRow extends AccessTokensTable {
  grant_revoked_at: number | null;
  client_revoked_at: number | null;
  client_first_party: number | null;
}

export async function listAccessTokenRows(
  db: Executor,
  filter: { userId?: string; kind?: 'pat' | 'oauth' },
): Promise<AccessTokenListRow[]> {
  let query = db
    .selectFrom('access_tokens as t')
    .leftJoin('grants as g', 'g.id', 't.grant_id')
    .leftJoin('clients as c', 'c.id', 't.client_id')
    .selectAll('t')
    .select([
      'g.revoked_at as grant_revoked_at',
      'c.revoked_at as client_revoked_at',
      'c.first_party as client_first_party',
    ]);
  if (filter.userId !== undefined) query = query.where('t.user_id', '=', filter.userId);
  if (filter.kind !== undefined) query = query.where('t.kind', '=', filter.kind);
  return query.orderBy('t.created_at', 'desc').orderBy('t.id').execute();
}

/** TR-06: when, from which address and by what a token was last used. */
export interface LastUse {
  at: number;
  ip: string | null;
  userAgent: string | null;
}

export async function updateLastUsed(db: Executor, id: string, use: LastUse): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ last_used_at: use.at, last_used_ip: use.ip, last_used_user_agent: use.userAgent })
    .where('id', '=', id)
    .execute();
}

/** TR-01: a personal access token's name and description, as given (validated by the caller). */
export async function updateTokenDetails(
  db: Executor,
  id: string,
  details: { name?: string; description?: string | null },
): Promise<void> {
  if (details.name === undefined && details.description === undefined) return;
  await db.updateTable('access_tokens').set(details).where('id', '=', id).execute();
}

/**
 * TR-03: the roll's claim on the old token, as one conditional update: still live, never rolled
 * and not past its expiry at `at`. It then works until `until` (its own expiry if sooner), or
 * not at all when `until` is `at` (revoked now). False when it was revoked, expired or rolled
 * first, by this request's twin or anyone else.
 */
export async function claimRoll(
  db: Executor,
  id: string,
  replacedBy: string,
  at: number,
  until: number,
  expiresAt: number,
): Promise<boolean> {
  const result = await db
    .updateTable('access_tokens')
    .set({
      rolled_at: at,
      replaced_by: replacedBy,
      ...(until <= at ? { revoked_at: at } : { expires_at: Math.min(until, expiresAt) }),
    })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('replaced_by', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
