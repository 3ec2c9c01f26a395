import type { Db } from '@latchkey/db';

/**
 * HD-15: a login transaction lives in its sealed cookie, never here; starting a sign-in writes
 * nothing. What is stored is the mark that a transaction was used, written by the callback
 * that takes it: a short row of the sessions table under its own key prefix, expiring with the
 * transaction, so the session store's sweep removes it. The primary key makes the claim one
 * that a single caller wins, on SQLite and PostgreSQL alike and across BFF instances
 * (BF-ST-03): the insert adds the row, or finds it there and adds nothing.
 */
export async function claimLoginTransaction(db: Db, key: string, expiresAt: number): Promise<boolean> {
  const inserted = await db
    .insertInto('sessions')
    .values({ sid: key, data: '{}', expires_at: expiresAt })
    .onConflict((oc) => oc.column('sid').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
