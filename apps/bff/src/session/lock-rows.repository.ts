import type { Db } from '@latchkey/db';

/**
 * Short leases in the `locks` table, shared by every BFF instance on the database. Each step
 * is one conditional statement that SQLite and PostgreSQL both run atomically, so two
 * instances can never both hold a live lease: a new row is inserted only if none exists, and
 * an existing row changes hands only once it has expired.
 */
export async function takeLock(db: Db, key: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
  const expiresAt = now + ttlMs;
  const inserted = await db
    .insertInto('locks')
    .values({ key, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  // Someone holds it, or held it and died: take it over only if it has expired.
  const taken = await db
    .updateTable('locks')
    .set({ holder, expires_at: expiresAt })
    .where('key', '=', key)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Releases a lease, only if this holder still has it (it may have expired and moved on). */
export async function releaseLock(db: Db, key: string, holder: string): Promise<void> {
  await db.deleteFrom('locks').where('key', '=', key).where('holder', '=', holder).execute();
}

/** Rows of holders that died long ago; a live lease is never touched. */
export async function pruneLocks(db: Db, before: number): Promise<void> {
  await db.deleteFrom('locks').where('expires_at', '<=', before).execute();
}
