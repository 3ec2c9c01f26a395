// RE-05: `purge [--dry-run]` as operators run it, in the CLI's own process, over rows the test
// wrote with times long past (the CLI's clock is the real one).
import { describe, expect, it } from 'vitest';
import { createClient, requireUserByEmail } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { DAY, expectFailure, expectSuccess, OWNER, useSeededSandbox } from '../cli.fixture.ts';
import {
  codeRow,
  insertAccessToken,
  insertEvent,
  insertGrant,
  insertSession,
  type Owner,
} from '../../../../packages/core/src/retention/retention.fixture.ts';

const sandbox = useSeededSandbox();
const cli = (args: string[], env?: Record<string, string>) => sandbox.run(args, env);

/** What a purge at the defaults deletes: 3 used codes and their grant, 2 PATs, 1 session, 1 event. */
async function seedOldRows(db: Db): Promise<void> {
  const now = Date.now();
  const user = await requireUserByEmail(db, OWNER);
  const { client } = await createClient(
    db,
    { now: () => now },
    {
      ownerId: user.id,
      name: 'Old App',
      redirectUris: ['https://client.example/cb'],
    },
  );
  const owner: Owner = { userId: user.id, clientId: client.id };
  const longAgo = now - 100 * DAY;
  const grantId = await insertGrant(db, owner, longAgo - DAY);
  await db
    .insertInto('authorization_codes')
    .values([1, 2, 3].map(() => codeRow(owner, { grantId, expiresAt: longAgo, consumedAt: longAgo })))
    .execute();
  await insertAccessToken(db, owner, { expiresAt: longAgo });
  await insertAccessToken(db, owner, { expiresAt: now + DAY, revokedAt: longAgo });
  await insertAccessToken(db, owner, { expiresAt: now + DAY });
  await insertSession(db, now - 1000);
  await insertEvent(db, owner, now - 400 * DAY);
}

const EXPECTED = {
  access_tokens: 2,
  refresh_tokens: 0,
  authorization_codes: 3,
  device_authorizations: 0,
  grants: 1,
  sessions: 1,
  security_events: 1,
};

describe('admin CLI: purge', () => {
  it('RE-05 purge --dry-run prints the counts per kind and deletes nothing; purge then deletes exactly those', async () => {
    await sandbox.withDb(seedOldRows);
    const count = () =>
      sandbox.withDb(async (db) =>
        Number(
          (
            await db
              .selectFrom('authorization_codes')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );

    const dry = await cli(['purge', '--dry-run']);
    expectSuccess(dry);
    expect(dry.json).toEqual({
      dry_run: true,
      retention_days: 90,
      audit_retention_days: 365,
      deleted: EXPECTED,
      token_expired_events: 1,
    });
    expect(await count()).toBe(3);
    // Again: still nothing deleted, same counts.
    expect((await cli(['purge', '--dry-run'])).json).toEqual(dry.json);

    const real = await cli(['purge']);
    expectSuccess(real);
    expect(real.json).toEqual({ ...dry.json, dry_run: false });
    expect(await count()).toBe(0);
    // The live token stays; nothing more to purge.
    const again = await cli(['purge']);
    expect(again.json.deleted).toEqual(Object.fromEntries(Object.keys(EXPECTED).map((kind) => [kind, 0])));
    await sandbox.withDb(async (db) => {
      expect(await db.selectFrom('access_tokens').select('id').execute()).toHaveLength(1);
    });
  });

  it('RE-05 RE-04 RETENTION_DAYS is honoured; while another instance holds the lease the purge is skipped', async () => {
    await sandbox.withDb(async (db) => {
      const user = await requireUserByEmail(db, OWNER);
      await insertAccessToken(db, { userId: user.id, clientId: '' }, { expiresAt: Date.now() - 10 * DAY });
    });
    expect((await cli(['purge', '--dry-run'])).json.deleted.access_tokens).toBe(0);
    expect((await cli(['purge', '--dry-run'], { RETENTION_DAYS: '7' })).json.deleted.access_tokens).toBe(1);

    await sandbox.withDb((db) =>
      db
        .insertInto('locks')
        .values({ key: 'retention-purge', holder: 'a server', expires_at: Date.now() + 60_000 })
        .execute(),
    );
    const skipped = await cli(['purge'], { RETENTION_DAYS: '7' });
    expectSuccess(skipped);
    expect(skipped.json).toMatchObject({ skipped: true });
    await sandbox.withDb((db) => db.deleteFrom('locks').execute());
    expect((await cli(['purge'], { RETENTION_DAYS: '7' })).json.deleted.access_tokens).toBe(1);
  });

  it('purge: an argument, an unknown flag or a bad RETENTION_DAYS exits with one line and changes nothing', async () => {
    expectFailure(await cli(['purge', 'now']), 2, /usage: purge \[--dry-run\]/);
    expectFailure(await cli(['purge', '--force']), 2, /usage: purge \[--dry-run\]/);
    expectFailure(await cli(['purge'], { RETENTION_DAYS: '0' }), 1, /RETENTION_DAYS/);
  });
});
