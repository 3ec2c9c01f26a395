// Issue 28's migration on both engines: what existed before scopes keeps what it could do (SC-10).
import { Migrator } from 'kysely/migration';
import { expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { useTestDatabase } from '#test/support/test-database.ts';
import { migrateToLatest, provider } from '../migrate.ts';

const db: Kysely<any> = useTestDatabase();

const BEFORE = '2026_11_27_000000_add_refresh_token_grace_marks';
const SCOPED = ['clients', 'consents', 'grants', 'authorization_codes', 'access_tokens'] as const;

/** One client with a consent, a grant, a code and an OAuth access token issued under it. */
async function insertAuthorization(clientId: string, firstParty: boolean): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id: clientId,
      owner_id: firstParty ? null : 'usr_s',
      name: clientId,
      redirect_uris: '["https://a.example/cb"]',
      secret_hash: 'h',
      secret_last4: 'abcd',
      first_party: firstParty ? 1 : 0,
      created_at: 1,
    })
    .execute();
  await db.insertInto('consents').values({ user_id: 'usr_s', client_id: clientId, created_at: 1 }).execute();
  await db
    .insertInto('grants')
    .values({ id: `grt_${clientId}`, user_id: 'usr_s', client_id: clientId, created_at: 1 })
    .execute();
  await db
    .insertInto('authorization_codes')
    .values({
      id: `cod_${clientId}`,
      code_hash: `code-hash-${clientId}`,
      grant_id: `grt_${clientId}`,
      client_id: clientId,
      user_id: 'usr_s',
      redirect_uri: 'https://a.example/cb',
      created_at: 1,
      expires_at: 2,
    })
    .execute();
  await insertAccessToken({ id: `tok_${clientId}`, kind: 'oauth', client_id: clientId, grant_id: `grt_${clientId}` });
}

async function insertAccessToken(row: {
  id: string;
  kind: 'oauth' | 'pat';
  client_id: string | null;
  grant_id: string | null;
}): Promise<void> {
  await db
    .insertInto('access_tokens')
    .values({
      ...row,
      token_hash: `token-hash-${row.id}`,
      user_id: 'usr_s',
      name: row.id,
      last4: 'wxyz',
      created_at: 1,
      expires_at: 2,
    })
    .execute();
}

/** The key that names a row of each scoped table in the answer of scopes(). */
const KEY = {
  clients: 'id',
  consents: 'client_id',
  grants: 'id',
  authorization_codes: 'id',
  access_tokens: 'id',
} as const;

/** Every scope column of the (fresh) database, by table and row. */
async function scopes(): Promise<Record<string, Record<string, string>>> {
  const result: Record<string, Record<string, string>> = {};
  for (const table of SCOPED) {
    const rows: Array<{ key: string; scope: string }> = await db
      .selectFrom(table)
      .select([`${KEY[table]} as key`, 'scope'])
      .execute();
    result[table] = Object.fromEntries(rows.map((row) => [row.key, row.scope]));
  }
  return result;
}

it('SC-10 2026_11_28_000000_add_scopes: what existed keeps what it could do; the portal’s own gets `account`', async () => {
  const migrator = new Migrator({ db, provider });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await db
    .insertInto('users')
    .values({ id: 'usr_s', email: 's@example.test', name: 'S', password_hash: 'h', created_at: 1 })
    .execute();
  await insertAuthorization('lkc_third', false);
  await insertAuthorization('lkc_portal', true);
  await insertAccessToken({ id: 'tok_pat', kind: 'pat', client_id: null, grant_id: null });

  await migrateToLatest(db);
  const third = 'profile email';
  const portal = 'profile email account';
  expect(await scopes()).toEqual({
    clients: { lkc_third: third, lkc_portal: portal },
    consents: { lkc_third: third, lkc_portal: portal },
    grants: { grt_lkc_third: third, grt_lkc_portal: portal },
    authorization_codes: { cod_lkc_third: third, cod_lkc_portal: portal },
    // A personal access token never gets `account` (SC-07): the account endpoints stay the portal's (SC-08).
    access_tokens: { tok_lkc_third: third, tok_lkc_portal: portal, tok_pat: third },
  });

  // Stepping down removes every scope column; up again restores the same backfill.
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  for (const table of SCOPED) {
    expect(await db.selectFrom(table).selectAll().limit(1).executeTakeFirst(), table).not.toHaveProperty('scope');
  }
  await migrateToLatest(db);
  expect((await scopes()).access_tokens).toEqual({ tok_lkc_third: third, tok_lkc_portal: portal, tok_pat: third });
});
