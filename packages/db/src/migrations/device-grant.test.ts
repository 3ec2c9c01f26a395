// Issue 33's migration on both engines: every client that existed before has not opted in to the
// device grant; device_authorizations exists, is empty and keeps each code digest once; stepping
// down and up again works and leaves the old rows as they were.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { rowsById, type RowsById } from '#test/support/rows-by-id.ts';
import { useTestDatabase } from '#test/support/test-database.ts';
import { provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_12_02_000000_client_registration';
/** Up to this migration only: later ones may change the same tables. */
const THIS = '2026_12_03_000000_device_grant';

/** The user and an old client; `clientOnly` puts the client back after its user was kept. */
async function insertOldClient(clientOnly = false): Promise<void> {
  if (!clientOnly) {
    await db
      .insertInto('users')
      .values({ id: 'usr_d', email: 'd@example.test', name: 'D', password_hash: 'h', created_at: 1 })
      .execute();
  }
  await db
    .insertInto('clients')
    .values({
      id: 'lkc_old',
      owner_id: 'usr_d',
      name: 'Old',
      redirect_uris: '["https://a.example/cb"]',
      first_party: 0,
      created_at: 1,
      scope: 'profile',
    })
    .execute();
}

/** The clients, by id (rowsById). */
function clients(): Promise<RowsById> {
  return rowsById(db, 'clients');
}

function authorization(id: string, deviceCodeHash: string, userCodeHash: string) {
  return {
    id,
    device_code_hash: deviceCodeHash,
    user_code_hash: userCodeHash,
    client_id: 'lkc_old',
    scope: 'profile',
    audience: 'https://api.example',
    status: 'pending',
    interval_seconds: 5,
    created_at: 10,
    expires_at: 610,
  };
}

it('DV-29 2026_12_03_000000_device_grant: existing clients have not opted in; device_authorizations exists with each code digest unique; down and up work', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await insertOldClient();
  const before = await clients();
  expect(before.lkc_old).not.toHaveProperty('device_grant');

  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  const after = await clients();
  const { device_grant: deviceGrant, ...rest } = after.lkc_old!;
  expect(Number(deviceGrant)).toBe(0);
  expect(rest).toEqual(before.lkc_old);

  expect(await db.selectFrom('device_authorizations').selectAll().execute()).toEqual([]);
  await db
    .insertInto('device_authorizations')
    .values(authorization('dva_1', 'dc1', 'uc1'))
    .execute();
  // A digest is found once: neither the device code's nor the user code's may repeat.
  await expect(
    db
      .insertInto('device_authorizations')
      .values(authorization('dva_2', 'dc1', 'uc2'))
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .insertInto('device_authorizations')
      .values(authorization('dva_3', 'dc3', 'uc1'))
      .execute(),
  ).rejects.toThrow();
  // Deleting the client takes its device authorizations with it.
  await db.deleteFrom('clients').where('id', '=', 'lkc_old').execute();
  expect(await db.selectFrom('device_authorizations').selectAll().execute()).toEqual([]);
  await insertOldClient(true);

  // Down: the column and the table are gone, the rows are as before.
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await clients()).toEqual(before);
  await expect(db.selectFrom('device_authorizations').selectAll().execute()).rejects.toThrow();

  // Up again: the same default for old and new rows.
  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await clients()).toEqual(after);
  expect(await db.selectFrom('device_authorizations').selectAll().execute()).toEqual([]);
});
