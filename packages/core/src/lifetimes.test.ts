// Clock-driven lifetimes (R-12, AC-05, RV-05), at the domain level over a real
// database (a SQLite file; PostgreSQL in the node-pg project). The HTTP-level versions live
// beside the token endpoint and the API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '@latchkey/db';
import { createTestDatabase, type TestDatabase } from '#test/support/test-database.ts';
import { ManualClock } from './clock.ts';
import { createClient } from './clients/clients.service.ts';
import { issueAuthorizationCode, redeemAuthorizationCode } from './authorization/codes.service.ts';
import { authenticateAccessToken, createPersonalAccessToken } from './tokens/access-tokens.service.ts';
import { refreshTokens } from './tokens/refresh.service.ts';
import { createUser } from './users/users.service.ts';
import type { Client } from './clients/client.ts';
import type { User } from './users/user.ts';
import { InvalidGrant, InvalidToken } from './errors.ts';

const YEAR = 365 * 24 * 60 * 60;
const lifetimes = { tokenTtlSeconds: YEAR, refreshTokenTtlSeconds: 30 * 24 * 60 * 60 };
let dir: string;
let database: TestDatabase;
let db: Db;
let user: User;
let client: Client;
const clock = new ManualClock(Date.UTC(2026, 0, 1));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-core-'));
  database = await createTestDatabase(dir);
  db = database.open();
  await migrateToLatest(db);
  user = await createUser(db, clock, { email: 'ada@example.test', password: 'quiet lantern meadow', name: 'Ada' });
  ({ client } = await createClient(db, clock, {
    ownerId: user.id,
    name: 'App',
    redirectUris: ['https://client.example/cb'],
  }));
});

afterAll(async () => {
  await db?.destroy();
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function codeAged(ms: number): Promise<string> {
  const code = await issueAuthorizationCode(db, clock, {
    client,
    userId: user.id,
    redirectUri: client.redirectUris[0]!,
    codeChallenge: null,
  });
  clock.advance(ms);
  return code;
}

const redeem = (code: string) =>
  redeemAuthorizationCode(db, clock, lifetimes, {
    client,
    code,
    redirectUri: client.redirectUris[0]!,
    codeVerifier: undefined,
  });

describe('R-12 clock boundaries', () => {
  it('AC-05 accepts a code at 9:59 and refuses one at 10:01', async () => {
    await expect(redeem(await codeAged(599_000))).resolves.toMatchObject({ expiresIn: YEAR });
    await expect(redeem(await codeAged(601_000))).rejects.toBeInstanceOf(InvalidGrant);
  });

  it('RV-05 accepts a PAT one second before a year and refuses it one second after', async () => {
    const { token } = await createPersonalAccessToken(db, clock, YEAR, { userId: user.id, name: 'year' });
    clock.advance((YEAR - 1) * 1000);
    await expect(authenticateAccessToken(db, clock, token)).resolves.toMatchObject({ kind: 'pat', userId: user.id });
    clock.advance(2000);
    await expect(authenticateAccessToken(db, clock, token)).rejects.toBeInstanceOf(InvalidToken);
  });

  it('refuses an OAuth access token one second past expires_in', async () => {
    const pair = await redeem(await codeAged(0));
    clock.advance(pair.expiresIn * 1000 - 1000);
    await expect(authenticateAccessToken(db, clock, pair.accessToken)).resolves.toMatchObject({ kind: 'oauth' });
    clock.advance(2000);
    await expect(authenticateAccessToken(db, clock, pair.accessToken)).rejects.toBeInstanceOf(InvalidToken);
  });

  it('RT-11 refuses a refresh token idle past its lifetime; each rotation starts a new period', async () => {
    const first = await redeem(await codeAged(0));
    clock.advance(29 * 24 * 3600 * 1000);
    const second = await refreshTokens(db, clock, lifetimes, client, first.refreshToken);
    clock.advance(29 * 24 * 3600 * 1000);
    const third = await refreshTokens(db, clock, lifetimes, client, second.refreshToken);
    clock.advance(31 * 24 * 3600 * 1000);
    await expect(refreshTokens(db, clock, lifetimes, client, third.refreshToken)).rejects.toBeInstanceOf(InvalidGrant);
  });
});
