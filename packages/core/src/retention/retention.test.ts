// Retention (issue 36, RE-01, RE-02, RE-04, RE-05; AU-11's `token.expired`): the purge over a real
// database (SQLite; PostgreSQL in node-pg, where foreign keys are enforced), rows written with
// chosen times and an injectable clock, so "just inside" and "just past" retention are a minute apart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '@latchkey/db';
import { createTestDatabase, type TestDatabase } from '#test/support/test-database.ts';
import { ManualClock } from '../clock.ts';
import { createClient } from '../clients/clients.service.ts';
import { createUser } from '../users/users.service.ts';
import {
  codeRow,
  insertAccessToken,
  insertCode,
  insertDeviceAuthorization,
  insertEvent,
  insertGrant,
  insertRefreshToken,
  insertSession,
  remaining,
  type Owner,
} from './retention.fixture.ts';
import { purgeExpiredData, PURGE_LEASE_KEY } from './retention.service.ts';
import { DAY_MS, PURGE_KINDS, type PurgeCounts } from './retention.ts';

const NOW = Date.UTC(2026, 5, 1);
const MINUTE = 60_000;
const RETENTION = { retentionDays: 90, auditRetentionDays: 365 };
/** Stopped mattering a minute before the cutoff (deleted) or a minute after it (kept). */
const PAST = NOW - 90 * DAY_MS - MINUTE;
const INSIDE = NOW - 90 * DAY_MS + MINUTE;
const FUTURE = NOW + 30 * DAY_MS;

let dir: string;
let database: TestDatabase;
let db: Db;
let clock: ManualClock;
let owner: Owner;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-retention-'));
  database = await createTestDatabase(dir);
  db = database.open();
  await migrateToLatest(db);
  clock = new ManualClock(NOW);
  const user = await createUser(db, clock, {
    email: 'ada@example.test',
    password: 'quiet lantern meadow',
    name: 'Ada',
  });
  const { client } = await createClient(db, clock, {
    ownerId: user.id,
    name: 'Old App',
    redirectUris: ['https://client.example/cb'],
  });
  owner = { userId: user.id, clientId: client.id };
});
afterEach(async () => {
  await db?.destroy();
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function countRows(): Promise<PurgeCounts> {
  const counts = {} as PurgeCounts;
  for (const kind of PURGE_KINDS) {
    const row = await db
      .selectFrom(kind)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    counts[kind] = Number(row.n);
  }
  return counts;
}

/** One of every case RE-01 and RE-02 name, past retention and not. */
async function seed() {
  const o = owner;
  const tokens = {
    revokedPast: await insertAccessToken(db, o, { expiresAt: FUTURE, revokedAt: PAST }),
    expiredPast: await insertAccessToken(db, o, { expiresAt: PAST }),
    rolledPast: await insertAccessToken(db, o, { expiresAt: PAST, replacedBy: 'tok_successor' }),
    revokedInside: await insertAccessToken(db, o, { expiresAt: FUTURE, revokedAt: INSIDE }),
    expiredInside: await insertAccessToken(db, o, { expiresAt: INSIDE }),
    live: await insertAccessToken(db, o, { expiresAt: FUTURE }),
  };
  // A grant revoked before the cutoff goes whole, its live-looking tokens and code first.
  const revokedGrant = await insertGrant(db, o, PAST - DAY_MS, PAST);
  const revokedGrantChildren = {
    access: await insertAccessToken(db, o, { kind: 'oauth', grantId: revokedGrant, expiresAt: FUTURE }),
    refresh: await insertRefreshToken(db, o, { grantId: revokedGrant, expiresAt: FUTURE }),
    code: await insertCode(db, o, { grantId: revokedGrant, expiresAt: FUTURE }),
  };
  // Revoked inside retention: kept with its tokens.
  const recentlyRevokedGrant = await insertGrant(db, o, PAST - DAY_MS, INSIDE);
  const recentChildren = {
    access: await insertAccessToken(db, o, { kind: 'oauth', grantId: recentlyRevokedGrant, expiresAt: FUTURE }),
    refresh: await insertRefreshToken(db, o, { grantId: recentlyRevokedGrant, expiresAt: FUTURE }),
  };
  // Never revoked, but every token and code of it dead before the cutoff: dead.
  const deadGrant = await insertGrant(db, o, PAST - DAY_MS);
  const deadChildren = {
    access: await insertAccessToken(db, o, { kind: 'oauth', grantId: deadGrant, expiresAt: PAST }),
    refresh: await insertRefreshToken(db, o, { grantId: deadGrant, expiresAt: PAST }),
    code: await insertCode(db, o, { grantId: deadGrant, expiresAt: PAST - DAY_MS, consumedAt: PAST - DAY_MS }),
  };
  // A grant in use for a long time: its old code and tokens go, the grant and its live refresh token stay.
  const liveGrant = await insertGrant(db, o, PAST - DAY_MS);
  const parentOfRedeemable = await insertRefreshToken(db, o, {
    grantId: liveGrant,
    expiresAt: FUTURE,
    consumedAt: PAST,
  });
  const liveChildren = {
    oldCode: await insertCode(db, o, { grantId: liveGrant, expiresAt: PAST - DAY_MS, consumedAt: PAST - DAY_MS }),
    codeInside: await insertCode(db, o, { grantId: liveGrant, expiresAt: INSIDE, consumedAt: INSIDE - MINUTE }),
    oldAccess: await insertAccessToken(db, o, { kind: 'oauth', grantId: liveGrant, expiresAt: PAST }),
    // Consumed before the cutoff, and its child was used: nothing needs it.
    consumedPast: await insertRefreshToken(db, o, { grantId: liveGrant, expiresAt: FUTURE, consumedAt: PAST }),
    consumedInside: await insertRefreshToken(db, o, { grantId: liveGrant, expiresAt: FUTURE, consumedAt: INSIDE }),
    // HD-07: redeeming this one marks its parent: the parent is kept while it can be redeemed.
    parentOfRedeemable,
    redeemable: await insertRefreshToken(db, o, {
      grantId: liveGrant,
      expiresAt: FUTURE,
      parentId: parentOfRedeemable,
    }),
  };
  await db
    .updateTable('refresh_tokens')
    .set({ parent_id: liveChildren.consumedPast })
    .where('id', '=', liveChildren.consumedInside)
    .execute();
  // Made inside retention, nothing issued yet: kept.
  const newGrant = await insertGrant(db, o, INSIDE);
  const devices = {
    expiredPast: await insertDeviceAuthorization(db, o, { expiresAt: PAST }),
    decidedPast: await insertDeviceAuthorization(db, o, { expiresAt: PAST + 5 * MINUTE, decidedAt: PAST }),
    expiredInside: await insertDeviceAuthorization(db, o, { expiresAt: INSIDE }),
    pending: await insertDeviceAuthorization(db, o, { expiresAt: NOW + 10 * MINUTE }),
  };
  const sessions = {
    expired: await insertSession(db, NOW - 1),
    live: await insertSession(db, NOW + 60 * MINUTE),
  };
  const events = {
    past: await insertEvent(db, o, NOW - 365 * DAY_MS - MINUTE),
    inside: await insertEvent(db, o, NOW - 365 * DAY_MS + MINUTE),
  };
  return {
    tokens,
    revokedGrant,
    revokedGrantChildren,
    recentlyRevokedGrant,
    recentChildren,
    deadGrant,
    deadChildren,
    liveGrant,
    liveChildren,
    newGrant,
    devices,
    sessions,
    events,
  };
}

describe('RE retention purge', () => {
  it('RE-01 deletes, per kind, only what stopped mattering more than RETENTION_DAYS ago; rows a minute inside and live rows stay', async () => {
    const s = await seed();
    const result = await purgeExpiredData(db, clock, RETENTION);
    expect(result.skipped).toBe(false);

    const sorted = (ids: string[]) => [...ids].sort();
    expect(await remaining(db, 'access_tokens', Object.values(s.tokens))).toEqual(
      sorted([s.tokens.revokedInside, s.tokens.expiredInside, s.tokens.live]),
    );
    expect(
      await remaining(db, 'grants', [s.revokedGrant, s.recentlyRevokedGrant, s.deadGrant, s.liveGrant, s.newGrant]),
    ).toEqual(sorted([s.recentlyRevokedGrant, s.liveGrant, s.newGrant]));
    // A dead grant's tokens and code are gone with it; a recently revoked one keeps its own.
    expect(await remaining(db, 'access_tokens', [s.revokedGrantChildren.access, s.deadChildren.access])).toEqual([]);
    expect(await remaining(db, 'refresh_tokens', [s.revokedGrantChildren.refresh, s.deadChildren.refresh])).toEqual([]);
    expect(await remaining(db, 'authorization_codes', [s.revokedGrantChildren.code, s.deadChildren.code])).toEqual([]);
    expect(await remaining(db, 'access_tokens', [s.recentChildren.access])).toEqual([s.recentChildren.access]);
    expect(await remaining(db, 'refresh_tokens', [s.recentChildren.refresh])).toEqual([s.recentChildren.refresh]);
    // The live grant: old code and access token gone; consumed refresh token gone unless a live one needs it.
    expect(await remaining(db, 'authorization_codes', [s.liveChildren.oldCode, s.liveChildren.codeInside])).toEqual([
      s.liveChildren.codeInside,
    ]);
    expect(await remaining(db, 'access_tokens', [s.liveChildren.oldAccess])).toEqual([]);
    expect(
      await remaining(db, 'refresh_tokens', [
        s.liveChildren.consumedPast,
        s.liveChildren.consumedInside,
        s.liveChildren.parentOfRedeemable,
        s.liveChildren.redeemable,
      ]),
    ).toEqual(sorted([s.liveChildren.consumedInside, s.liveChildren.parentOfRedeemable, s.liveChildren.redeemable]));
    expect(await remaining(db, 'device_authorizations', Object.values(s.devices))).toEqual(
      sorted([s.devices.expiredInside, s.devices.pending]),
    );
    const sessions = await db.selectFrom('sessions').select('sid').execute();
    expect(sessions.map((r) => r.sid)).toEqual([s.sessions.live]);

    expect(result).toMatchObject({
      deleted: {
        // revokedPast, expiredPast, rolledPast; the revoked grant's, the dead grant's, the live grant's old one.
        access_tokens: 6,
        // the revoked grant's, the dead grant's, consumedPast.
        refresh_tokens: 3,
        authorization_codes: 3,
        device_authorizations: 2,
        grants: 2,
        sessions: 1,
        security_events: 1,
      },
    });

    // Two minutes later, what was a minute inside retention is a minute past it: the recently
    // revoked grant with its two tokens, the other two access tokens, consumedInside, codeInside,
    // and the grant made a minute inside, which never had a token.
    clock.advance(2 * MINUTE);
    const later = await purgeExpiredData(db, clock, RETENTION);
    expect(later).toMatchObject({
      deleted: {
        access_tokens: 3,
        refresh_tokens: 2,
        authorization_codes: 1,
        device_authorizations: 1,
        grants: 2,
        sessions: 0,
        security_events: 1,
      },
    });
    expect(await remaining(db, 'access_tokens', Object.values(s.tokens))).toEqual([s.tokens.live]);
    expect(await remaining(db, 'access_tokens', [s.recentChildren.access])).toEqual([]);
    expect(await remaining(db, 'grants', [s.recentlyRevokedGrant, s.liveGrant, s.newGrant])).toEqual([s.liveGrant]);
  });

  it('RE-02 security events older than AUDIT_RETENTION_DAYS are deleted; newer ones stay; the setting is honoured', async () => {
    const s = await seed();
    await purgeExpiredData(db, clock, RETENTION);
    expect(await remaining(db, 'security_events', [s.events.past, s.events.inside])).toEqual([s.events.inside]);
    // A shorter audit retention deletes the other one too.
    await purgeExpiredData(db, clock, { ...RETENTION, auditRetentionDays: 30 });
    expect(await remaining(db, 'security_events', [s.events.inside])).toEqual([]);
  });

  it('RE-05 a dry run deletes nothing and writes nothing, and reports exactly what the real run then deletes', async () => {
    await seed();
    await insertAccessToken(db, owner, { expiresAt: NOW - DAY_MS });
    const before = await countRows();
    const eventsBefore = await db.selectFrom('security_events').select('id').execute();
    const dry = await purgeExpiredData(db, clock, { ...RETENTION, dryRun: true });
    expect(await countRows()).toEqual(before);
    expect(await db.selectFrom('security_events').select('id').execute()).toEqual(eventsBefore);
    expect(dry).toMatchObject({ skipped: false, dryRun: true });

    const real = await purgeExpiredData(db, clock, { ...RETENTION, batchSize: 2 });
    expect(real).toMatchObject({ skipped: false, dryRun: false });
    if (dry.skipped || real.skipped) throw new Error('unexpected skip');
    expect(real.deleted).toEqual(dry.deleted);
    expect(real.tokenExpiredEvents).toBe(dry.tokenExpiredEvents);
    const after = await countRows();
    for (const kind of PURGE_KINDS) {
      const events = kind === 'security_events' ? real.tokenExpiredEvents : 0;
      expect(after[kind], kind).toBe(before[kind] + events - real.deleted[kind]);
    }
  });

  it('RE-03 deletes in batches of batchSize: 250 used codes with batches of 100 are all deleted', async () => {
    const grantId = await insertGrant(db, owner, NOW - 200 * DAY_MS);
    const rows = Array.from({ length: 250 }, () =>
      codeRow(owner, { grantId, expiresAt: PAST - DAY_MS, consumedAt: PAST - DAY_MS }),
    );
    await db.insertInto('authorization_codes').values(rows).execute();
    const result = await purgeExpiredData(db, clock, { ...RETENTION, batchSize: 100 });
    expect(result).toMatchObject({ deleted: { authorization_codes: 250, grants: 1 } });
    expect(await db.selectFrom('authorization_codes').select('id').execute()).toEqual([]);
  });

  it('RE-04 two purges started at once on one database (two connections): each row is deleted once and one run is skipped', async () => {
    const grantId = await insertGrant(db, owner, NOW - 200 * DAY_MS);
    const rows = Array.from({ length: 600 }, () =>
      codeRow(owner, { grantId, expiresAt: PAST - DAY_MS, consumedAt: PAST - DAY_MS }),
    );
    await db.insertInto('authorization_codes').values(rows).execute();
    const other = database.open();
    try {
      const results = await Promise.all([
        purgeExpiredData(db, clock, { ...RETENTION, batchSize: 50 }),
        purgeExpiredData(other, clock, { ...RETENTION, batchSize: 50 }),
      ]);
      const ran = results.filter((r) => !r.skipped);
      expect(results.filter((r) => r.skipped)).toHaveLength(1);
      expect(ran).toHaveLength(1);
      expect(ran[0]).toMatchObject({ deleted: { authorization_codes: 600, grants: 1 } });
      expect(await db.selectFrom('authorization_codes').select('id').execute()).toEqual([]);
      // The lease was given back: the next run runs.
      expect(await db.selectFrom('locks').selectAll().where('key', '=', PURGE_LEASE_KEY).execute()).toEqual([]);
      expect((await purgeExpiredData(other, clock, RETENTION)).skipped).toBe(false);
    } finally {
      await other.destroy();
    }
  });

  it('RE-04 a live lease held by another instance skips the run; an expired one (its holder died) is taken over', async () => {
    await insertSession(db, NOW - 1);
    await db
      .insertInto('locks')
      .values({ key: PURGE_LEASE_KEY, holder: 'another-instance', expires_at: NOW + MINUTE })
      .execute();
    expect(await purgeExpiredData(db, clock, RETENTION)).toEqual({ skipped: true });
    expect(await db.selectFrom('sessions').select('sid').execute()).toHaveLength(1);
    // A dry run needs no lease.
    expect(await purgeExpiredData(db, clock, { ...RETENTION, dryRun: true })).toMatchObject({
      skipped: false,
      deleted: { sessions: 1 },
    });
    clock.advance(2 * MINUTE);
    expect(await purgeExpiredData(db, clock, RETENTION)).toMatchObject({ skipped: false, deleted: { sessions: 1 } });
  });
});

describe('AU-11 token.expired', () => {
  it('AU-11 the purge writes one token.expired event, by the system, for each personal access token that expired; never twice, never for revoked, rolled, OAuth or live tokens', async () => {
    const expired = await insertAccessToken(db, owner, { expiresAt: NOW - DAY_MS });
    const expiredLongAgo = await insertAccessToken(db, owner, { expiresAt: PAST });
    await insertAccessToken(db, owner, { expiresAt: NOW - DAY_MS, revokedAt: NOW - 2 * DAY_MS });
    await insertAccessToken(db, owner, { expiresAt: NOW - DAY_MS, replacedBy: 'tok_successor' });
    await insertAccessToken(db, owner, { kind: 'oauth', expiresAt: NOW - DAY_MS });
    await insertAccessToken(db, owner, { expiresAt: FUTURE });

    const first = await purgeExpiredData(db, clock, RETENTION);
    expect(first).toMatchObject({ tokenExpiredEvents: 2 });
    const events = await db.selectFrom('security_events').selectAll().where('type', '=', 'token.expired').execute();
    expect(events.map((e) => e.target_id).sort()).toEqual([expired, expiredLongAgo].sort());
    for (const event of events) {
      expect(event).toMatchObject({
        user_id: owner.userId,
        actor: 'system',
        actor_id: null,
        target_type: 'access_token',
        outcome: 'success',
      });
    }
    // Dated when the token expired.
    expect(Number(events.find((e) => e.target_id === expired)!.created_at)).toBe(NOW - DAY_MS);
    // The token past retention was logged, then deleted; the event stays (AUDIT_RETENTION_DAYS).
    expect(await remaining(db, 'access_tokens', [expiredLongAgo])).toEqual([]);

    clock.advance(60 * MINUTE);
    expect(await purgeExpiredData(db, clock, RETENTION)).toMatchObject({ tokenExpiredEvents: 0 });
    expect(
      await db.selectFrom('security_events').select('id').where('type', '=', 'token.expired').execute(),
    ).toHaveLength(2);
  });
});
