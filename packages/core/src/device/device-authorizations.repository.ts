import { sql } from 'kysely';
import type { DeviceAuthorizationsTable, Executor } from '@latchkey/db';

export async function insertDeviceAuthorization(db: Executor, row: DeviceAuthorizationsTable): Promise<void> {
  await db.insertInto('device_authorizations').values(row).execute();
}

export async function findDeviceAuthorizationByDeviceCodeHash(
  db: Executor,
  deviceCodeHash: string,
): Promise<DeviceAuthorizationsTable | undefined> {
  return db
    .selectFrom('device_authorizations')
    .selectAll()
    .where('device_code_hash', '=', deviceCodeHash)
    .executeTakeFirst();
}

export async function findDeviceAuthorizationByUserCodeHash(
  db: Executor,
  userCodeHash: string,
): Promise<DeviceAuthorizationsTable | undefined> {
  return db
    .selectFrom('device_authorizations')
    .selectAll()
    .where('user_code_hash', '=', userCodeHash)
    .executeTakeFirst();
}

/**
 * DV-06: the user's decision, one conditional update: only a request still pending and unexpired
 * changes, so two users (or two tabs) cannot both decide it. False when it was no longer pending.
 */
export async function markDeviceAuthorizationDecided(
  db: Executor,
  id: string,
  now: number,
  decision: { status: 'approved' | 'denied'; userId: string; authTime: number | null },
): Promise<boolean> {
  const result = await db
    .updateTable('device_authorizations')
    .set({ status: decision.status, user_id: decision.userId, auth_time: decision.authTime, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * DV-05 (RFC 8628 §3.5): records a poll that came at least `interval_seconds` after the last one.
 * One conditional update, so two polls at once cannot both count as on time. False: too soon.
 */
export async function recordTimelyPoll(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('device_authorizations')
    .set({ last_polled_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('last_polled_at', 'is', null),
        // The column is the bigint side, so PostgreSQL types `now` as a bigint too.
        eb(sql<number>`last_polled_at + interval_seconds * 1000`, '<=', now),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** DV-05: a poll too soon: the interval grows by 5 s and this poll counts as the last one. */
export async function slowDownPolling(db: Executor, id: string, now: number, stepSeconds: number): Promise<void> {
  await db
    .updateTable('device_authorizations')
    .set((eb) => ({ interval_seconds: eb('interval_seconds', '+', stepSeconds), last_polled_at: now }))
    .where('id', '=', id)
    .execute();
}

/**
 * DV-08: the single atomic step that makes a device code redeemable once: approved → redeemed as a
 * conditional update, never read-then-write. False when another poll redeemed it first.
 */
export async function markDeviceAuthorizationRedeemed(db: Executor, id: string): Promise<boolean> {
  const result = await db
    .updateTable('device_authorizations')
    .set({ status: 'redeemed' })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
