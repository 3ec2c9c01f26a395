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

/** Sets revoked_at once; a second revocation keeps the first time (RV-07). */
export async function markClientRevoked(db: Executor, id: string, at: number): Promise<void> {
  await db
    .updateTable('clients')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
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
