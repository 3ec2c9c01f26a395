import type { Db } from '@latchkey/db';

/**
 * Login transactions are short-lived rows of the sessions table under their own key prefix,
 * so the session store's sweep removes the abandoned ones.
 */
export async function insertLoginTransaction(db: Db, key: string, data: string, expiresAt: number): Promise<void> {
  await db.insertInto('sessions').values({ sid: key, data, expires_at: expiresAt }).execute();
}

/**
 * Reads and deletes a transaction in one step that only one caller can win: the row is read,
 * then deleted, and only the caller whose delete removed it gets the data (BF-ST-03).
 */
export async function takeLoginTransaction(
  db: Db,
  key: string,
): Promise<{ data: string; expiresAt: number } | undefined> {
  const row = await db.selectFrom('sessions').select(['data', 'expires_at']).where('sid', '=', key).executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('sessions').where('sid', '=', key).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) return undefined;
  return { data: row.data, expiresAt: Number(row.expires_at) };
}

export async function deleteLoginTransaction(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sessions').where('sid', '=', key).execute();
}
