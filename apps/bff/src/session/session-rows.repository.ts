import type { Db } from '@latchkey/db';

/**
 * Replaces a stored session's data and keeps its expiry. Nothing is written when the row is
 * gone (signed out meanwhile), so a refresh that finishes after sign-out cannot bring the
 * session back. Returns whether a row was updated.
 */
export async function replaceSessionData(db: Db, key: string, data: string): Promise<boolean> {
  const result = await db.updateTable('sessions').set({ data }).where('sid', '=', key).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
