import type { ClientsTable, Executor } from '@latchkey/db';

export async function insertClient(db: Executor, row: ClientsTable): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

export async function findClientRowById(db: Executor, id: string): Promise<ClientsTable | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listClientRows(db: Executor, ownerId?: string): Promise<ClientsTable[]> {
  let query = db.selectFrom('clients').selectAll();
  if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId);
  return query.orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Sets revoked_at once; a second revocation keeps the first time (RV-07). */
export async function markClientRevoked(db: Executor, id: string, at: number): Promise<void> {
  await db.updateTable('clients').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function updateClientCredentials(
  db: Executor,
  id: string,
  values: Pick<ClientsTable, 'secret_hash' | 'secret_last4' | 'redirect_uri' | 'name'>,
): Promise<void> {
  await db.updateTable('clients').set(values).where('id', '=', id).execute();
}
