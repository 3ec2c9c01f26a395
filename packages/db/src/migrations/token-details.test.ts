// Issue 35's migration on both engines: every access token that existed before has no
// description, was used from nowhere known and was never rolled; the rest of its row is as it
// was; stepping down and up again works and keeps the row.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { rowsById, type RowsById } from '#test/support/rows-by-id.ts';
import { useTestDatabase } from '#test/support/test-database.ts';
import { provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_12_03_000000_device_grant';
/** Up to this migration only: later ones may change the same table. */
const THIS = '2026_12_04_000000_token_details';
const ADDED = ['description', 'last_used_ip', 'last_used_user_agent', 'rolled_at', 'replaced_by'];

async function insertOldToken(): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: 'usr_t', email: 't@example.test', name: 'T', password_hash: 'h', created_at: 1 })
    .execute();
  await db
    .insertInto('access_tokens')
    .values({
      id: 'tok_old',
      token_hash: 'th_old',
      kind: 'pat',
      user_id: 'usr_t',
      client_id: null,
      grant_id: null,
      name: 'Old token',
      last4: 'abcd',
      created_at: 10,
      expires_at: 1_000_000,
      revoked_at: null,
      last_used_at: 500,
      scope: 'profile email',
      audience: 'latchkey_api',
    })
    .execute();
}

/** The access tokens, by id (rowsById). */
function tokens(): Promise<RowsById> {
  return rowsById(db, 'access_tokens');
}

it('TR-14 2026_12_04_000000_token_details: an old token has no description, no last-use address or User-Agent, was never rolled, and is otherwise unchanged; down and up work', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await insertOldToken();
  const before = await tokens();
  for (const column of ADDED) expect(before.tok_old).not.toHaveProperty(column);

  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  const after = await tokens();
  expect(after.tok_old).toEqual({ ...before.tok_old, ...Object.fromEntries(ADDED.map((column) => [column, null])) });

  // The new columns take what the API and the roll write.
  await db
    .updateTable('access_tokens')
    .set({
      description: 'CI',
      last_used_ip: '127.0.0.1',
      last_used_user_agent: 'curl/8',
      rolled_at: 600,
      replaced_by: 'tok_new',
    })
    .where('id', '=', 'tok_old')
    .execute();
  expect((await tokens()).tok_old).toMatchObject({ description: 'CI', last_used_ip: '127.0.0.1', rolled_at: 600 });

  // Down: the columns are gone, the row is as before.
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await tokens()).toEqual(before);

  // Up again: the same nulls.
  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await tokens()).toEqual(after);
});
