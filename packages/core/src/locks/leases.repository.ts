import type { Executor } from '@latchkey/db';

/**
 * Short leases in the `locks` table, shared by every instance on the database: the portal's
 * single-flight refresh per session, and the retention purge (RE-04). Each step is one
 * conditional statement SQLite and PostgreSQL both run atomically: a row is inserted only if none
 * exists, and an existing one changes hands only once it has expired, so two instances never both
 * hold a live lease.
 */
export async function takeLease(
  db: Executor,
  key: string,
  holder: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const expiresAt = now + ttlMs;
  const inserted = await db
    .insertInto('locks')
    .values({ key, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  // Held, or held by an instance that died: taken over only once expired.
  const taken = await db
    .updateTable('locks')
    .set({ holder, expires_at: expiresAt })
    .where('key', '=', key)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Extends the lease while its holder still has it; false once it was lost (expired and taken). */
export async function renewLease(
  db: Executor,
  key: string,
  holder: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const renewed = await db
    .updateTable('locks')
    .set({ expires_at: now + ttlMs })
    .where('key', '=', key)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

/** Gives the lease back, only if this holder still has it. */
export async function releaseLease(db: Executor, key: string, holder: string): Promise<void> {
  await db.deleteFrom('locks').where('key', '=', key).where('holder', '=', holder).execute();
}

/** Rows of holders that died long ago; a live lease is never touched. */
export async function pruneLeases(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('locks').where('expires_at', '<=', before).execute();
}
