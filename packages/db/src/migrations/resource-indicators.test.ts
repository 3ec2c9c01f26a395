// Issue 31's migration on both engines: what existed before resource indicators is the Latchkey
// API's, and nothing else about it changes (RS-12); stepping down and up again works.
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { useTestDatabase } from '#test/support/test-database.ts';
import { provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_11_30_000000_openid_connect';
/** Up to this migration only: later ones change other tables. */
const THIS = '2026_12_01_000000_resource_indicators';
const AUDIENCED = ['grants', 'authorization_codes', 'access_tokens'] as const;
const TABLES = ['users', 'clients', 'client_secrets', 'consents', ...AUDIENCED, 'refresh_tokens'] as const;

/** A user, a client with its secret and consent, a grant, a code, an OAuth pair under it, and a PAT. */
async function insertOldRows(): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: 'usr_r', email: 'r@example.test', name: 'R', password_hash: 'h', created_at: 1 })
    .execute();
  await db
    .insertInto('clients')
    .values({
      id: 'lkc_r',
      owner_id: 'usr_r',
      name: 'App',
      redirect_uris: '["https://a.example/cb"]',
      first_party: 0,
      created_at: 1,
      scope: 'profile email',
    })
    .execute();
  await db
    .insertInto('client_secrets')
    .values({ id: 'cs_r', client_id: 'lkc_r', secret_hash: 'sh', last4: 'abcd', created_at: 1 })
    .execute();
  await db
    .insertInto('consents')
    .values({ user_id: 'usr_r', client_id: 'lkc_r', created_at: 1, scope: 'profile' })
    .execute();
  await db
    .insertInto('grants')
    .values({ id: 'grt_r', user_id: 'usr_r', client_id: 'lkc_r', created_at: 1, scope: 'profile' })
    .execute();
  await db
    .insertInto('authorization_codes')
    .values({
      id: 'cod_r',
      code_hash: 'ch',
      grant_id: 'grt_r',
      client_id: 'lkc_r',
      user_id: 'usr_r',
      redirect_uri: 'https://a.example/cb',
      created_at: 1,
      expires_at: 2,
      scope: 'profile',
      nonce: 'n',
      auth_time: 1,
    })
    .execute();
  const token = { user_id: 'usr_r', last4: 'wxyz', created_at: 1, expires_at: 2 };
  await db
    .insertInto('access_tokens')
    .values([
      {
        ...token,
        id: 'tok_oauth',
        token_hash: 'th1',
        kind: 'oauth',
        client_id: 'lkc_r',
        grant_id: 'grt_r',
        name: 'App',
        scope: 'profile',
      },
      {
        ...token,
        id: 'tok_pat',
        token_hash: 'th2',
        kind: 'pat',
        client_id: null,
        grant_id: null,
        name: 'ci',
        scope: 'profile email',
      },
    ])
    .execute();
  await db
    .insertInto('refresh_tokens')
    .values({
      id: 'rft_r',
      token_hash: 'rh',
      grant_id: 'grt_r',
      client_id: 'lkc_r',
      user_id: 'usr_r',
      created_at: 1,
      expires_at: 3,
    })
    .execute();
}

/** Every row of the tables above, by table, with numbers as numbers (PostgreSQL answers bigint as text). */
async function snapshot(): Promise<Record<string, Array<Record<string, unknown>>>> {
  const result: Record<string, Array<Record<string, unknown>>> = {};
  for (const table of TABLES) {
    const rows: Array<Record<string, unknown>> = await db.selectFrom(table).selectAll().execute();
    result[table] = rows
      .map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([key, value]) => [key, typeof value === 'bigint' ? Number(value) : value]),
        ),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return result;
}

/** The snapshot without the `audience` column: what was there before. */
function withoutAudience(rows: Record<string, Array<Record<string, unknown>>>) {
  return Object.fromEntries(
    Object.entries(rows).map(([table, list]) => [table, list.map(({ audience: _audience, ...rest }) => rest)]),
  );
}

async function audiences(): Promise<Record<string, Record<string, string>>> {
  const result: Record<string, Record<string, string>> = {};
  for (const table of AUDIENCED) {
    const rows: Array<{ id: string; audience: string }> = await db
      .selectFrom(table)
      .select(['id', 'audience'])
      .execute();
    result[table] = Object.fromEntries(rows.map((row) => [row.id, row.audience]));
  }
  return result;
}

it('RS-12 2026_12_01_000000_resource_indicators: grants, codes, OAuth tokens and PATs become the Latchkey API’s; nothing else changes; down and up work', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await insertOldRows();
  const before = await snapshot();

  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  const api = 'latchkey_api';
  const expected = {
    grants: { grt_r: api },
    authorization_codes: { cod_r: api },
    access_tokens: { tok_oauth: api, tok_pat: api },
  };
  expect(await audiences()).toEqual(expected);
  const after = await snapshot();
  expect(withoutAudience(after)).toEqual(before);
  // Only the three tables gained the column; no resource server exists yet.
  for (const table of ['users', 'clients', 'client_secrets', 'consents', 'refresh_tokens'] as const) {
    expect(after[table]![0], table).not.toHaveProperty('audience');
  }
  expect(await db.selectFrom('resource_servers').selectAll().execute()).toEqual([]);

  // Down: the column and the table are gone, the rows are as before.
  await db
    .insertInto('resource_servers')
    .values({ id: 'rs_r', uri: 'https://r.example/', name: 'R', scope: 'profile', created_at: 1 })
    .execute();
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await snapshot()).toEqual(before);
  await expect(db.selectFrom('resource_servers').selectAll().execute()).rejects.toThrow();

  // Up again: the same backfill, and a new row gets the API's audience by default.
  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await audiences()).toEqual(expected);
  await db
    .insertInto('grants')
    .values({ id: 'grt_new', user_id: 'usr_r', client_id: 'lkc_r', created_at: 2, scope: 'profile' })
    .execute();
  expect((await audiences()).grants).toEqual({ grt_r: api, grt_new: api });
});
