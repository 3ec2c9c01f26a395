// Issue 32's migration on both engines: every client that existed before is one a person
// registered, with none of the self-registration columns set; the two new tables exist and are
// empty; stepping down and up again works and leaves the old rows as they were.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { rowsById, type RowsById } from '#test/support/rows-by-id.ts';
import { useTestDatabase } from '#test/support/test-database.ts';
import { provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_12_01_000000_resource_indicators';
/** Up to this migration only: later ones change other tables. */
const THIS = '2026_12_02_000000_client_registration';
const NEW_COLUMNS = ['registration', 'metadata_expires_at', 'logo_uri', 'registration_token_hash', 'last_used_at'];

/** An owned client and one provisioned without an owner, as they were before issue 32. */
async function insertOldClients(): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: 'usr_c', email: 'c@example.test', name: 'C', password_hash: 'h', created_at: 1 })
    .execute();
  const client = { redirect_uris: '["https://a.example/cb"]', first_party: 0, created_at: 1, scope: 'profile email' };
  await db
    .insertInto('clients')
    .values([
      { ...client, id: 'lkc_owned', owner_id: 'usr_c', name: 'Owned' },
      { ...client, id: 'lkc_provisioned', owner_id: null, name: 'Provisioned', first_party: 1 },
    ])
    .execute();
}

/** The clients, by id (rowsById). */
function clients(): Promise<RowsById> {
  return rowsById(db, 'clients');
}

function withoutNewColumns(rows: Record<string, Record<string, unknown>>) {
  return Object.fromEntries(
    Object.entries(rows).map(([id, row]) => [
      id,
      Object.fromEntries(Object.entries(row).filter(([key]) => !NEW_COLUMNS.includes(key))),
    ]),
  );
}

it('CM-20 2026_12_02_000000_client_registration: existing clients are registered ones with the new columns null; blocked_client_hosts and registration_tokens exist; down and up work', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await insertOldClients();
  const before = await clients();
  expect(before.lkc_owned).not.toHaveProperty('registration');

  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  const after = await clients();
  expect(withoutNewColumns(after)).toEqual(before);
  for (const id of ['lkc_owned', 'lkc_provisioned']) {
    expect(after[id], id).toMatchObject({
      registration: 'registered',
      metadata_expires_at: null,
      logo_uri: null,
      registration_token_hash: null,
      last_used_at: null,
    });
  }
  expect(await db.selectFrom('blocked_client_hosts').selectAll().execute()).toEqual([]);
  expect(await db.selectFrom('registration_tokens').selectAll().execute()).toEqual([]);
  // The tables take what the code writes: a host once, a token digest once.
  await db.insertInto('blocked_client_hosts').values({ host: 'bad.example', created_at: 5 }).execute();
  await expect(
    db.insertInto('blocked_client_hosts').values({ host: 'bad.example', created_at: 6 }).execute(),
  ).rejects.toThrow();
  const token = { token_hash: 'th', last4: 'abcd', label: 'ci', created_at: 5 };
  await db
    .insertInto('registration_tokens')
    .values({ ...token, id: 'rgt_1' })
    .execute();
  await expect(
    db
      .insertInto('registration_tokens')
      .values({ ...token, id: 'rgt_2' })
      .execute(),
  ).rejects.toThrow();

  // Down: the columns and the tables are gone, the rows are as before.
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await clients()).toEqual(before);
  await expect(db.selectFrom('blocked_client_hosts').selectAll().execute()).rejects.toThrow();
  await expect(db.selectFrom('registration_tokens').selectAll().execute()).rejects.toThrow();

  // Up again: the same default, and a new row without a registration is a registered one.
  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await clients()).toEqual(after);
  await db
    .insertInto('clients')
    .values({ id: 'lkc_new', owner_id: 'usr_c', name: 'New', redirect_uris: '[]', created_at: 2, scope: 'profile' })
    .execute();
  expect((await clients()).lkc_new).toMatchObject({ registration: 'registered', metadata_expires_at: null });
  expect(await db.selectFrom('blocked_client_hosts').selectAll().execute()).toEqual([]);
});
