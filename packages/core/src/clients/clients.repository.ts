import type { ClientsTable, Executor } from '@latchkey/db';
import { canMatchStoredText } from '../text.ts';

export async function insertClient(db: Executor, row: ClientsTable): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

export async function findClientRowById(db: Executor, id: string): Promise<ClientsTable | undefined> {
  if (!canMatchStoredText(id)) return undefined;
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listClientRows(db: Executor, ownerId?: string): Promise<ClientsTable[]> {
  let query = db.selectFrom('clients').selectAll();
  if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId);
  return query.orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Sets revoked_at once; a second revocation keeps the first time (RV-07). True: this call revoked it. */
export async function markClientRevoked(db: Executor, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('clients')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type ClientUpdate = Partial<
  Pick<
    ClientsTable,
    | 'name'
    | 'redirect_uris'
    | 'post_logout_redirect_uri'
    | 'description'
    | 'client_uri'
    | 'policy_uri'
    | 'tos_uri'
    | 'id_token_signed_response_alg'
    | 'device_grant'
  >
>;

export async function updateClientRow(db: Executor, id: string, values: ClientUpdate): Promise<void> {
  await db.updateTable('clients').set(values).where('id', '=', id).execute();
}

/**
 * Inserts a provisioned client, or updates its credentials if it exists: one statement, so
 * instances starting together on an empty database cannot race on the insert.
 */
export async function upsertProvisionedClient(db: Executor, row: ClientsTable): Promise<void> {
  const { name, redirect_uris, post_logout_redirect_uri } = row;
  await db
    .insertInto('clients')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ name, redirect_uris, post_logout_redirect_uri }))
    .execute();
}

/**
 * DR-*: a dynamic client got tokens at `at`: last_used_at is written at most once per
 * `intervalMs` per client, and never for any other client (the update matches no row).
 */
export async function markDynamicClientUsed(db: Executor, id: string, at: number, intervalMs: number): Promise<void> {
  await db
    .updateTable('clients')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where('registration', '=', 'dynamic')
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', at - intervalMs)]))
    .execute();
}

/** DR-*: up to `limit` dynamic clients neither used nor created since `cutoff`, oldest first. */
export async function listDynamicClientIdsUnusedSince(db: Executor, cutoff: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('clients')
    .select('id')
    .where('registration', '=', 'dynamic')
    .where((eb) => eb(eb.fn.coalesce('last_used_at', 'created_at'), '<', cutoff))
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Deletes those of `ids` that are still dynamic and unused since `cutoff` (one used since it
 * was listed is kept); grants, codes, tokens, consents, secrets and origins go with them (FKs
 * cascade). Returns how many were deleted.
 */
export async function deleteDynamicClientsUnusedSince(db: Executor, ids: string[], cutoff: number): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('clients')
    .where('id', 'in', ids)
    .where('registration', '=', 'dynamic')
    .where((eb) => eb(eb.fn.coalesce('last_used_at', 'created_at'), '<', cutoff))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** DR-*: deletes one dynamic client whose registration access token has this digest; false when none. */
export async function deleteDynamicClientRow(db: Executor, id: string, tokenHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('clients')
    .where('id', '=', id)
    .where('registration', '=', 'dynamic')
    .where('registration_token_hash', '=', tokenHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
