// The query shapes the repositories use (packages/core, the session store, the BFF's locks),
// checked for the same answers on both engines: this file runs in the `node` project on
// SQLite and in `node-pg` on PostgreSQL. Differences the domain would otherwise trip over:
// BIGINT as numbers, affected-row counts, upserts, counts, ordering and text comparison.
import { describe, expect, it } from 'vitest';
import { testEngine, useTestDatabase } from '#test/support/test-database.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { migrateToLatest } from './migrate.ts';

const db = useTestDatabase();
/** Past 2^31 and 2^32 ms, far in the future: a BIGINT that must come back exact. */
const T = Date.UTC(2300, 0, 1, 12, 0, 0, 123);

let serial = 0;
async function user(email = `u${(serial += 1)}@example.test`, id = `usr_${serial}_${email}`) {
  await db.insertInto('users').values({ id, email, name: 'U', password_hash: 'h', created_at: T }).execute();
  return id;
}

async function client(ownerId: string, id = `cli_${(serial += 1)}`) {
  await db
    .insertInto('clients')
    .values({
      id,
      owner_id: ownerId,
      name: 'App',
      redirect_uris: '["https://app.example/cb"]',
      first_party: 1,
      public: 0,
      id_token_signed_response_alg: 'RS256',
      require_pkce: 0,
      created_at: T,
      revoked_at: null,
      scope: 'profile email',
      registration: 'registered',
    })
    .execute();
  return id;
}

describe(`DD-6 engine parity: ${testEngine()}`, () => {
  it('BIGINT and INTEGER columns come back as exact JavaScript numbers, NULL as null', async () => {
    const owner = await user();
    const id = await client(owner);
    const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.created_at).toBe(T);
    expect(typeof row.created_at).toBe('number');
    expect(row.first_party).toBe(1);
    expect(row.revoked_at).toBeNull();
    const max = Number.MAX_SAFE_INTEGER;
    await db.insertInto('sessions').values({ sid: 'big', data: '{}', expires_at: max }).execute();
    const session = await db
      .selectFrom('sessions')
      .select('expires_at')
      .where('sid', '=', 'big')
      .executeTakeFirstOrThrow();
    expect(session.expires_at).toBe(max);
  });

  it('counts are numbers', async () => {
    const owner = await user();
    await client(owner);
    await client(owner);
    const { n } = await db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', owner)
      .executeTakeFirstOrThrow();
    expect(n).toBe(2);
  });

  it('AC-04 a conditional update reports 1 row, then 0: the single-use step', async () => {
    const owner = await user();
    await db.insertInto('sessions').values({ sid: 'once', data: 'x', expires_at: T }).execute();
    const consume = () =>
      db
        .updateTable('sessions')
        .set({ data: 'used' })
        .where('sid', '=', 'once')
        .where('data', '=', 'x')
        .executeTakeFirst();
    expect(Number((await consume()).numUpdatedRows)).toBe(1);
    expect(Number((await consume()).numUpdatedRows)).toBe(0);
    const deleted = await db.deleteFrom('users').where('id', '=', owner).executeTakeFirst();
    expect(Number(deleted.numDeletedRows)).toBe(1);
  });

  it('RT-03 of concurrent conditional updates of one row exactly one wins', async () => {
    await db.insertInto('locks').values({ key: 'race', holder: 'nobody', expires_at: 0 }).execute();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction().execute((trx) =>
          trx
            .updateTable('locks')
            .set({ holder: `h${i}`, expires_at: T })
            .where('key', '=', 'race')
            .where('expires_at', '<=', 1)
            .executeTakeFirst(),
        ),
      ),
    );
    expect(results.map((r) => Number(r.numUpdatedRows)).reduce((a, b) => a + b)).toBe(1);
  });

  it('insert … on conflict do nothing: 1 inserted, then 0 and no error (consents, locks)', async () => {
    const take = () =>
      db
        .insertInto('locks')
        .values({ key: 'lease', holder: 'a', expires_at: T })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
    expect(Number((await take()).numInsertedOrUpdatedRows ?? 0)).toBe(1);
    expect(Number((await take()).numInsertedOrUpdatedRows ?? 0)).toBe(0);
    const owner = await user();
    const app = await client(owner);
    for (let i = 0; i < 2; i += 1) {
      await db
        .insertInto('consents')
        .values({ user_id: owner, client_id: app, created_at: T, scope: 'profile' })
        .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
        .execute();
    }
    const consents = await db.selectFrom('consents').selectAll().where('user_id', '=', owner).execute();
    expect(consents).toHaveLength(1);
  });

  it('insert … on conflict do update (the session store upsert) replaces the row', async () => {
    const upsert = (data: string, expiresAt: number) =>
      db
        .insertInto('sessions')
        .values({ sid: 'up', data, expires_at: expiresAt })
        .onConflict((oc) => oc.column('sid').doUpdateSet({ data, expires_at: expiresAt }))
        .execute();
    await upsert('one', T);
    await upsert('two', T + 1);
    expect(await db.selectFrom('sessions').selectAll().where('sid', '=', 'up').execute()).toEqual([
      { sid: 'up', data: 'two', expires_at: T + 1 },
    ]);
  });

  it('text equality is case-sensitive on both (emails are normalised before they are stored)', async () => {
    await user('Case@Example.test', 'usr_case');
    expect(
      await db.selectFrom('users').select('id').where('email', '=', 'case@example.test').executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom('users').select('id').where('email', '=', 'Case@Example.test').executeTakeFirst(),
    ).toEqual({
      id: 'usr_case',
    });
  });

  it('ties on created_at are broken by id in byte order (uppercase before lowercase) on both', async () => {
    const owner = await user();
    for (const id of ['cli_b', 'cli_B', 'cli_a', 'cli_A', 'cli_0']) await client(owner, id);
    const rows = await db
      .selectFrom('clients')
      .select('id')
      .where('owner_id', '=', owner)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.id)).toEqual(['cli_0', 'cli_A', 'cli_B', 'cli_a', 'cli_b']);
  });

  it('deleting a user cascades to its clients (foreign keys are enforced on both)', async () => {
    const owner = await user();
    const app = await client(owner);
    await db.deleteFrom('users').where('id', '=', owner).execute();
    expect(await db.selectFrom('clients').select('id').where('id', '=', app).executeTakeFirst()).toBeUndefined();
  });

  it('a unique violation is an error of the request, not "database unavailable"; the transaction rolls back', async () => {
    const email = `dup${(serial += 1)}@example.test`;
    await user(email);
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('sessions').values({ sid: 'rolled-back', data: 'x', expires_at: T }).execute();
        await trx
          .insertInto('users')
          .values({ id: 'usr_dup', email, name: 'D', password_hash: 'h', created_at: T })
          .execute();
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(false);
    expect(
      await db.selectFrom('sessions').select('sid').where('sid', '=', 'rolled-back').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('migrations are idempotent: a second run applies nothing', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
  });
});
