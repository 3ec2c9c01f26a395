// Issue 36's migration on both engines: the security log starts empty, keeps an event per row,
// goes with its user, and stepping down and up again works.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { useTestDatabase } from '#test/support/test-database.ts';
import { provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_12_04_000000_token_details';
/** Up to this migration only: later ones may change the same tables. */
const THIS = '2026_12_05_000000_security_events';

const event = (id: string, userId: string) => ({
  id,
  user_id: userId,
  type: 'sign_in',
  actor: 'user',
  actor_id: userId,
  ip: '203.0.113.7',
  user_agent: 'test',
  target_type: null,
  target_id: null,
  outcome: 'success',
  created_at: 1_000,
});

it('AU-09 2026_12_05_000000_security_events: an empty log that keeps each event once and goes with its user; down and up work', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await db
    .insertInto('users')
    .values({ id: 'usr_a', email: 'a@example.test', name: 'A', password_hash: 'h', created_at: 1 })
    .execute();

  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await db.selectFrom('security_events').selectAll().execute()).toEqual([]);
  await db.insertInto('security_events').values(event('evt_1', 'usr_a')).execute();
  await expect(db.insertInto('security_events').values(event('evt_1', 'usr_a')).execute()).rejects.toThrow();
  // Every event belongs to a user that exists.
  await expect(db.insertInto('security_events').values(event('evt_2', 'usr_nobody')).execute()).rejects.toThrow();
  await db.deleteFrom('users').where('id', '=', 'usr_a').execute();
  expect(await db.selectFrom('security_events').selectAll().execute()).toEqual([]);

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await expect(db.selectFrom('security_events').selectAll().execute()).rejects.toThrow();
  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await db.selectFrom('security_events').selectAll().execute()).toEqual([]);
});
