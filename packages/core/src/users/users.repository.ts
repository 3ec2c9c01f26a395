import type { Executor, UsersTable } from '@latchkey/db';
import { canMatchStoredText } from '../text.ts';

export async function insertUser(db: Executor, row: UsersTable): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function findUserRowByEmail(db: Executor, email: string): Promise<UsersTable | undefined> {
  if (!canMatchStoredText(email)) return undefined;
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserRowById(db: Executor, id: string): Promise<UsersTable | undefined> {
  if (!canMatchStoredText(id)) return undefined;
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listUserRows(db: Executor): Promise<UsersTable[]> {
  return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** Foreign keys cascade to clients, consents, grants, codes and tokens (GQ-10b). */
export async function deleteUserRow(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
