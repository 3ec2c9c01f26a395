import type { Executor } from '@latchkey/db';

/**
 * HD-14: the per-user caps on what /account creates. A cap is only as good as its count: two
 * creations that both counted before either inserted would both pass at cap - 1. So each
 * creation first writes its user's row (a no-op update), in the same transaction as the count
 * and the insert. On PostgreSQL that takes the row's lock: a concurrent creation for the same
 * user waits at its own update until this one commits, and its count (READ COMMITTED: a new
 * snapshot per statement) then sees the row this one added; other users' creations do not
 * wait. On SQLite the update takes the database's write lock at once (before any read, so a
 * WAL snapshot can never go stale under it), which serializes the whole transaction against
 * every other writer, in this process or another. The same queries on both engines, no
 * engine-specific locking SQL.
 */
async function lockUserForCreation(trx: Executor, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', userId)
    .execute();
}

/** Clients the user owns that are not revoked: the ones MAX_CLIENTS_PER_USER counts. */
export async function countActiveClients(db: Executor, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Personal access tokens of the user that still work (neither revoked nor expired): the ones
 * MAX_TOKENS_PER_USER counts. OAuth access tokens are not counted: each comes from an
 * authorization and replaces its grant's previous one on refresh (one live pair per grant).
 */
export async function countActivePersonalAccessTokens(db: Executor, userId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('access_tokens')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'pat')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface CappedInsert {
  userId: string;
  /** The most the user may hold, the new one included. */
  cap: number;
  /** How many the user holds now, read inside the transaction. */
  count: (trx: Executor) => Promise<number>;
  insert: (trx: Executor) => Promise<void>;
}

/**
 * Inserts only while the user holds fewer than `cap`, atomically (see lockUserForCreation).
 * Returns false, having written nothing, when the user is at the cap.
 */
export async function insertWithinCap(db: Executor, capped: CappedInsert): Promise<boolean> {
  const run = async (trx: Executor): Promise<boolean> => {
    await lockUserForCreation(trx, capped.userId);
    if ((await capped.count(trx)) >= capped.cap) return false;
    await capped.insert(trx);
    return true;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
