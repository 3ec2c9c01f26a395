// Issue 29's migration on both engines: each client's one secret moves to client_secrets and
// keeps working (SR-10); stepping down puts it back on the client row.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { authenticateClient } from '@latchkey/core';
import { digest, generateToken, lastFour, TokenPrefix } from '@latchkey/credentials';
import { useTestDatabase } from '#test/support/test-database.ts';
import type { Db } from '../database.ts';
import { migrateToLatest, provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_11_28_000000_add_scopes';

/** The client as the old schema holds it: its secret's digest and last four on the row. */
async function insertOldClient(id: string, secret: string, firstParty: boolean): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id,
      owner_id: firstParty ? null : 'usr_m',
      name: id,
      redirect_uris: '["https://a.example/cb"]',
      secret_hash: digest(secret),
      secret_last4: lastFour(secret),
      first_party: firstParty ? 1 : 0,
      created_at: 1_700_000_000_000,
    })
    .execute();
}

it('SR-10 2026_11_29_000000_public_clients_and_secrets: every client keeps its secret, and down() restores it', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await db
    .insertInto('users')
    .values({ id: 'usr_m', email: 'm@example.test', name: 'M', password_hash: 'h', created_at: 1 })
    .execute();
  const secrets = { lkc_third: generateToken(TokenPrefix.clientSecret), lkc_portal: 'configured-portal-secret' };
  await insertOldClient('lkc_third', secrets.lkc_third, false);
  await insertOldClient('lkc_portal', secrets.lkc_portal, true);

  await migrateToLatest(db);
  for (const [id, secret] of Object.entries(secrets)) {
    await expect(authenticateClient(db as Db, id, secret), id).resolves.toMatchObject({ id, public: false });
    await expect(authenticateClient(db as Db, id, `${secret}x`), id).rejects.toMatchObject({ code: 'invalid_client' });
  }
  const rows = await db.selectFrom('client_secrets').selectAll().orderBy('id').execute();
  expect(rows.map((row) => ({ ...row, created_at: Number(row.created_at) }))).toEqual([
    {
      id: 'cs_lkc_portal',
      client_id: 'lkc_portal',
      secret_hash: digest(secrets.lkc_portal),
      last4: lastFour(secrets.lkc_portal),
      created_at: 1_700_000_000_000,
      expires_at: null,
      last_used_at: expect.anything(),
    },
    {
      id: 'cs_lkc_third',
      client_id: 'lkc_third',
      secret_hash: digest(secrets.lkc_third),
      last4: lastFour(secrets.lkc_third),
      created_at: 1_700_000_000_000,
      expires_at: null,
      last_used_at: expect.anything(),
    },
  ]);
  const clients = await db.selectFrom('clients').selectAll().execute();
  expect(clients.map((row) => Number(row.public))).toEqual([0, 0]);
  expect(clients[0]).not.toHaveProperty('secret_hash');
  expect(clients[0]).not.toHaveProperty('secret_last4');

  // A second, newer secret (a rotation under way): stepping down keeps the older one, the one
  // the app was using, on the client row.
  await db
    .insertInto('client_secrets')
    .values({
      id: 'cs_newer',
      client_id: 'lkc_third',
      secret_hash: digest('newer'),
      last4: 'ewer',
      created_at: 1_800_000_000_000,
    })
    .execute();
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const down = await db.selectFrom('clients').select(['id', 'secret_hash', 'secret_last4']).orderBy('id').execute();
  expect(down).toEqual([
    { id: 'lkc_portal', secret_hash: digest(secrets.lkc_portal), secret_last4: lastFour(secrets.lkc_portal) },
    { id: 'lkc_third', secret_hash: digest(secrets.lkc_third), secret_last4: lastFour(secrets.lkc_third) },
  ]);
  expect(await db.selectFrom('clients').selectAll().limit(1).executeTakeFirst()).not.toHaveProperty('public');

  // And up again: the same secrets work.
  await migrateToLatest(db);
  for (const [id, secret] of Object.entries(secrets)) {
    await expect(authenticateClient(db as Db, id, secret), id).resolves.toMatchObject({ id });
  }
});
