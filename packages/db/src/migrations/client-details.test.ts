// Issue 19's migration on both engines: a client registered before it keeps its one redirect
// URL, as the first and only element of redirect_uris; stepping down restores the column.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { useTestDatabase } from '#test/support/test-database.ts';
import { migrateToLatest, provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

it('CE-02 2026_11_26_000000_client_details moves each redirect_uri into redirect_uris, and back down', async () => {
  const migrator = new Migrator({ db, provider });
  const down = await migrator.migrateTo('2026_11_25_000000_add_refresh_token_parent');
  expect(down.error).toBeUndefined();
  await db
    .insertInto('users')
    .values({ id: 'usr_m', email: 'm@example.test', name: 'M', password_hash: 'h', created_at: 1 })
    .execute();
  for (const [id, uri] of [
    ['lkc_a', 'https://a.example/cb?x="1"'],
    ['lkc_b', 'http://localhost:8080/cb'],
  ]) {
    await db
      .insertInto('clients')
      .values({
        id,
        owner_id: 'usr_m',
        name: id,
        redirect_uri: uri,
        secret_hash: 'h',
        secret_last4: 'abcd',
        created_at: 1,
      })
      .execute();
  }
  await migrateToLatest(db);
  const rows = await db.selectFrom('clients').selectAll().where('owner_id', '=', 'usr_m').orderBy('id').execute();
  expect(rows.map((r) => [r.id, JSON.parse(r.redirect_uris), r.description, r.client_uri])).toEqual([
    ['lkc_a', ['https://a.example/cb?x="1"'], null, null],
    ['lkc_b', ['http://localhost:8080/cb'], null, null],
  ]);
  expect(rows[0]).not.toHaveProperty('redirect_uri');

  expect((await migrator.migrateTo('2026_11_25_000000_add_refresh_token_parent')).error).toBeUndefined();
  const restored = await db.selectFrom('clients').selectAll().where('owner_id', '=', 'usr_m').orderBy('id').execute();
  expect(restored.map((r) => r.redirect_uri)).toEqual(['https://a.example/cb?x="1"', 'http://localhost:8080/cb']);
  await migrateToLatest(db);
});
