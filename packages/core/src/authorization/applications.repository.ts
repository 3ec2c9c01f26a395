import type { LastUse } from '../tokens/tokens.repository.ts';
import type { ClientRegistration, Executor } from '@latchkey/db';

/** A grant of a third-party client that can still act, with what the list shows of its client. */
export interface GrantOfApplicationRow {
  grant_id: string;
  grant_created_at: number;
  client_id: string;
  client_name: string;
  owner_name: string | null;
  /** CM-16: how the client came to be; its id is its document's URL for `metadata_document`. */
  client_registration: ClientRegistration;
  /** The grant's scopes, space-delimited (formatScope). */
  grant_scope: string;
}

/**
 * The user's grants that are not revoked, of third-party clients that are not revoked. Whether
 * each still holds a live token is decided by the caller (`liveGrantIds`).
 */
export async function listOpenGrantsOfApplications(
  db: Executor,
  userId: string,
  clientId?: string,
): Promise<GrantOfApplicationRow[]> {
  let query = db
    .selectFrom('grants as g')
    .innerJoin('clients as c', 'c.id', 'g.client_id')
    .leftJoin('users as o', 'o.id', 'c.owner_id')
    .select([
      'g.id as grant_id',
      'g.created_at as grant_created_at',
      'c.id as client_id',
      'c.name as client_name',
      'o.name as owner_name',
      'c.registration as client_registration',
      'g.scope as grant_scope',
    ])
    .where('g.user_id', '=', userId)
    .where('g.revoked_at', 'is', null)
    .where('c.first_party', '=', 0)
    .where('c.revoked_at', 'is', null);
  if (clientId !== undefined) query = query.where('c.id', '=', clientId);
  return query.execute();
}

/** The user's consents to third-party clients that are not revoked. */
export async function listConsentsToApplications(
  db: Executor,
  userId: string,
  clientId?: string,
): Promise<
  Array<{
    client_id: string;
    client_name: string;
    owner_name: string | null;
    client_registration: ClientRegistration;
    created_at: number;
  }>
> {
  let query = db
    .selectFrom('consents as k')
    .innerJoin('clients as c', 'c.id', 'k.client_id')
    .leftJoin('users as o', 'o.id', 'c.owner_id')
    .select([
      'c.id as client_id',
      'c.name as client_name',
      'o.name as owner_name',
      'c.registration as client_registration',
      'k.created_at',
    ])
    .where('k.user_id', '=', userId)
    .where('c.first_party', '=', 0)
    .where('c.revoked_at', 'is', null);
  if (clientId !== undefined) query = query.where('c.id', '=', clientId);
  return query.execute();
}

/** Of these grants, the ones with an access token or a refresh token that still works at `now`. */
export async function liveGrantIds(db: Executor, grantIds: readonly string[], now: number): Promise<Set<string>> {
  if (grantIds.length === 0) return new Set();
  const [access, refresh] = await Promise.all([
    db
      .selectFrom('access_tokens')
      .select('grant_id')
      .where('grant_id', 'in', grantIds)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute(),
    db
      .selectFrom('refresh_tokens')
      .select('grant_id')
      .where('grant_id', 'in', grantIds)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .execute(),
  ]);
  return new Set([...access, ...refresh].flatMap((row) => (row.grant_id === null ? [] : [row.grant_id])));
}

/**
 * The latest use of any access token issued under each of these grants: when, from which
 * address and by what (TR-06). Grants never used are absent.
 */
export async function lastUseByGrant(db: Executor, grantIds: readonly string[]): Promise<Map<string, LastUse>> {
  if (grantIds.length === 0) return new Map();
  // The rows of each grant's latest use only: a long-lived grant has a token per refresh.
  const rows = await db
    .selectFrom('access_tokens as t')
    .innerJoin(
      (eb) =>
        eb
          .selectFrom('access_tokens')
          .select((inner) => ['grant_id', inner.fn.max('last_used_at').as('latest')])
          .where('grant_id', 'in', grantIds)
          .where('last_used_at', 'is not', null)
          .groupBy('grant_id')
          .as('x'),
      (join) => join.onRef('x.grant_id', '=', 't.grant_id').onRef('x.latest', '=', 't.last_used_at'),
    )
    .select(['t.grant_id', 't.last_used_at', 't.last_used_ip', 't.last_used_user_agent'])
    .execute();
  const latest = new Map<string, LastUse>();
  for (const row of rows) {
    if (row.grant_id === null || row.last_used_at === null) continue;
    const at = Number(row.last_used_at);
    const seen = latest.get(row.grant_id);
    if (seen === undefined || at > seen.at) {
      latest.set(row.grant_id, { at, ip: row.last_used_ip ?? null, userAgent: row.last_used_user_agent ?? null });
    }
  }
  return latest;
}

/**
 * Everything the user gave this client, taken back: its grants, the access tokens and codes
 * issued under them (AA-02; refresh tokens die with their grant: AA-03), and the consent, so the
 * next authorization asks again (AA-04). Only this user's rows: other users' grants to the same
 * client are untouched (AA-05). Call inside a transaction.
 */
export async function revokeEverythingOfClientForUser(
  trx: Executor,
  userId: string,
  clientId: string,
  at: number,
): Promise<void> {
  // Grants and access tokens are revoked; a code not yet exchanged is spent, so exchanging it
  // now is a replay (invalid_grant).
  const ends = [
    ['grants', 'revoked_at'],
    ['access_tokens', 'revoked_at'],
    ['authorization_codes', 'consumed_at'],
  ] as const;
  for (const [table, column] of ends) {
    await trx
      .updateTable(table)
      .set({ [column]: at })
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where(column, 'is', null)
      .execute();
  }
  await trx.deleteFrom('consents').where('user_id', '=', userId).where('client_id', '=', clientId).execute();
}
