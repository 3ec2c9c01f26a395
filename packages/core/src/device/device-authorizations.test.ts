// RFC 8628 in core (issue 33): the user code's alphabet, length and normalisation, and the
// atomic decision, over a real database (SQLite; PostgreSQL in node-pg).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import { digest } from '@latchkey/credentials';
import { migrateToLatest, type Db } from '@latchkey/db';
import { createTestDatabase, type TestDatabase } from '#test/support/test-database.ts';
import type { Client } from '../clients/client.ts';
import { createClient } from '../clients/clients.service.ts';
import { ManualClock } from '../clock.ts';
import { InvalidGrant } from '../errors.ts';
import { createUser } from '../users/users.service.ts';
import {
  decideDeviceAuthorization,
  findPendingDeviceAuthorization,
  formatUserCode,
  normalizeUserCode,
  pollDeviceAuthorization,
  startDeviceAuthorization,
  USER_CODE_ALPHABET,
} from './device-authorizations.service.ts';

const clock = new ManualClock(Date.UTC(2026, 0, 1));
let dir: string;
let database: TestDatabase;
let db: Db;
let userIds: string[];
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-device-'));
  database = await createTestDatabase(dir);
  db = database.open();
  await migrateToLatest(db);
  userIds = [];
  for (const name of ['Ada', 'Bob']) {
    const user = await createUser(db, clock, {
      email: `${name.toLowerCase()}@example.test`,
      password: 'quiet lantern meadow',
      name,
    });
    userIds.push(user.id);
  }
  ({ client } = await createClient(db, clock, {
    ownerId: userIds[0]!,
    name: 'TV App',
    redirectUris: ['https://client.example/cb'],
    public: true,
    deviceGrant: true,
  }));
});
afterAll(async () => {
  await db?.destroy();
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function start() {
  return startDeviceAuthorization(db, clock, { client, scopes: ['openid'], audience: LATCHKEY_API_AUDIENCE });
}

describe('RFC 8628 §6.1 user codes', () => {
  it('DV-01 RFC 8628 §6.1: a user code is 8 letters of BCDFGHJKLMNPQRSTVWXZ, drawn evenly from the CSPRNG', async () => {
    expect(USER_CODE_ALPHABET).toBe('BCDFGHJKLMNPQRSTVWXZ');
    const counts = new Map<string, number>();
    const codes = new Set<string>();
    for (let i = 0; i < 150; i += 1) {
      const { userCode, deviceCode } = await start();
      expect(userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      expect(deviceCode).toMatch(/^[A-Za-z0-9_-]{43}$/); // DV-02: 32 bytes, base64url
      codes.add(userCode);
      for (const letter of userCode) counts.set(letter, (counts.get(letter) ?? 0) + 1);
    }
    expect(codes.size).toBe(150);
    // 1200 letters: every letter of the alphabet appears, none wildly more often (expected 60 each).
    expect([...counts.keys()].sort().join('')).toBe(USER_CODE_ALPHABET);
    for (const n of counts.values()) expect(n).toBeLessThan(120);
  });

  it('DV-01 RFC 8628 §6.1: typed in any case, with or without the hyphen or spaces, a code is the same code', () => {
    for (const typed of ['WDJB-MJHT', 'wdjb-mjht', 'WDJBMJHT', 'wdjbmjht', ' wdjb mjht ', 'Wd-Jb-Mj-Ht']) {
      expect(normalizeUserCode(typed)).toBe('WDJBMJHT');
    }
    expect(formatUserCode('WDJBMJHT')).toBe('WDJB-MJHT');
  });

  it('DV-01 wrong letters or the wrong length are not a user code', () => {
    for (const typed of [
      'WDJB-MJH',
      'WDJB-MJHTB',
      'WDJA-MJHT',
      'WDJB-MJH1',
      'WDJB_MJHT',
      '',
      'WDJB-MJHT\u0000',
      'ÀDJB-MJHT',
    ]) {
      expect(normalizeUserCode(typed)).toBeUndefined();
    }
  });

  it('DV-04 both codes are stored as SHA-256 digests only', async () => {
    const { userCode, deviceCode } = await start();
    const row = await db
      .selectFrom('device_authorizations')
      .selectAll()
      .where('device_code_hash', '=', digest(deviceCode))
      .executeTakeFirstOrThrow();
    expect(row.user_code_hash).toBe(digest(userCode));
    expect(JSON.stringify(row)).not.toContain(deviceCode);
    expect(JSON.stringify(row)).not.toContain(userCode);
  });
});

describe('RFC 8628 §5.4 the user decides once', () => {
  it('DV-06 a code is found by its user code in any form while pending; one user decides it, atomically', async () => {
    const { userCode } = await start();
    const pending = await findPendingDeviceAuthorization(db, clock, formatUserCode(userCode).toLowerCase());
    expect(pending).toMatchObject({ client: { id: client.id }, scopes: ['openid'], audience: LATCHKEY_API_AUDIENCE });
    const [first, second] = await Promise.all([
      decideDeviceAuthorization(db, clock, { id: pending!.id, userId: userIds[0]!, approved: true }),
      decideDeviceAuthorization(db, clock, { id: pending!.id, userId: userIds[1]!, approved: false }),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await findPendingDeviceAuthorization(db, clock, userCode)).toBeUndefined();
    const row = await db
      .selectFrom('device_authorizations')
      .select(['status', 'user_id'])
      .where('id', '=', pending!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual(
      first ? { status: 'approved', user_id: userIds[0] } : { status: 'denied', user_id: userIds[1] },
    );
  });

  it('DV-08 two polls of an approved code at once: one token pair, one InvalidGrant', async () => {
    const { userCode, deviceCode } = await start();
    const pending = await findPendingDeviceAuthorization(db, clock, userCode);
    await decideDeviceAuthorization(db, clock, { id: pending!.id, userId: userIds[0]!, approved: true });
    const lifetimes = { tokenTtlSeconds: 3600, refreshTokenTtlSeconds: 86_400 };
    const outcomes = await Promise.allSettled([
      pollDeviceAuthorization(db, clock, { client, deviceCode, lifetimes }),
      pollDeviceAuthorization(db, clock, { client, deviceCode, lifetimes }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(InvalidGrant);
    const grants = await db.selectFrom('grants').select('id').where('client_id', '=', client.id).execute();
    expect(grants).toHaveLength(1);
  });

  it('DV-12 an expired code is no longer found nor decided', async () => {
    const { userCode } = await start();
    const pending = await findPendingDeviceAuthorization(db, clock, userCode);
    clock.advance(10 * 60 * 1000);
    expect(await findPendingDeviceAuthorization(db, clock, userCode)).toBeUndefined();
    expect(await decideDeviceAuthorization(db, clock, { id: pending!.id, userId: userIds[0]!, approved: true })).toBe(
      false,
    );
  });
});
