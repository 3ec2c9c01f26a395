// Issue 16 part 3: revoking a token is one transaction, and the last-used recorder neither
// loses nor hides a failed flush. Over a real database (SQLite; PostgreSQL in node-pg) whose
// queries on a table can be made to fail (test/support/faults.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '@latchkey/db';
import { anOutage, FaultInjector } from '#test/support/faults.ts';
import { createTestDatabase, type TestDatabase } from '#test/support/test-database.ts';
import { issueAuthorizationCode, redeemAuthorizationCode } from '../authorization/codes.service.ts';
import { ManualClock } from '../clock.ts';
import { createClient } from '../clients/clients.service.ts';
import { createUser } from '../users/users.service.ts';
import {
  authenticateAccessToken,
  createPersonalAccessToken,
  listAllTokens,
  revokeAccessToken,
} from './access-tokens.service.ts';
import { LastUsedRecorder } from './last-used.ts';

const lifetimes = { tokenTtlSeconds: 3600, refreshTokenTtlSeconds: 86_400 };
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const faults = new FaultInjector();
let dir: string;
let database: TestDatabase;
let db: Db;
let userId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-atomic-'));
  database = await createTestDatabase(dir);
  db = database.open().withPlugin(faults);
  await migrateToLatest(db);
  userId = (await createUser(db, clock, { email: 'ada@example.test', password: 'quiet lantern meadow', name: 'Ada' }))
    .id;
});
afterAll(async () => {
  await db?.destroy();
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('issue 16: one transaction, no silent loss', () => {
  it('revoking an app token whose grant cannot be revoked changes nothing: the token still works', async () => {
    const { client } = await createClient(db, clock, {
      ownerId: userId,
      name: 'App',
      redirectUris: ['https://client.example/cb'],
    });
    const code = await issueAuthorizationCode(db, clock, {
      client,
      userId,
      redirectUri: 'https://client.example/cb',
      codeChallenge: null,
    });
    const pair = await redeemAuthorizationCode(db, clock, lifetimes, {
      client,
      code,
      redirectUri: 'https://client.example/cb',
      codeVerifier: undefined,
    });
    const principal = await authenticateAccessToken(db, clock, pair.accessToken);

    faults.failQueriesOn('grants', anOutage);
    await expect(revokeAccessToken(db, clock, principal.tokenId, userId)).rejects.toThrow(/ECONNREFUSED/);
    faults.clear();
    await expect(authenticateAccessToken(db, clock, pair.accessToken)).resolves.toMatchObject({
      tokenId: principal.tokenId,
    });

    await revokeAccessToken(db, clock, principal.tokenId, userId);
    await expect(authenticateAccessToken(db, clock, pair.accessToken)).rejects.toThrow();
  });

  it('a failed last-used flush keeps its uses, and the next flush writes them', async () => {
    const created = await createPersonalAccessToken(db, clock, 3600, { userId, name: 'ci' });
    // No timed flush in this test: the two flushes are the test's own, one after the other.
    const recorder = new LastUsedRecorder(db, 3_600_000);
    try {
      recorder.record(created.summary.id, clock.now());
      faults.failQueriesOn('access_tokens', anOutage);
      await expect(recorder.flush()).rejects.toThrow(/ECONNREFUSED/);
      faults.clear();
      await recorder.flush();
      const summary = (await listAllTokens(db, clock, userId)).find((t) => t.id === created.summary.id)!;
      expect(summary.lastUsedAt).toBe(clock.now());
    } finally {
      faults.clear();
      await recorder.close();
    }
  });

  it('a timed flush that fails is reported to onFlushError (the API logs it), not swallowed', async () => {
    const created = await createPersonalAccessToken(db, clock, 3600, { userId, name: 'timed' });
    const errors: unknown[] = [];
    const recorder = new LastUsedRecorder(db, 10, (err) => errors.push(err));
    faults.failQueriesOn('access_tokens', anOutage);
    try {
      recorder.record(created.summary.id, clock.now());
      await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(String(errors[0])).toMatch(/ECONNREFUSED/);
    } finally {
      // Closing flushes once more, still against the failing table.
      await recorder.close().catch(() => undefined);
      faults.clear();
    }
  });

  it('AU-14 AU-02 AU-11 a token creation costs one more statement for its event: the token row and the event, inserted in one transaction; if the event fails, no token is made', async () => {
    const statements: string[] = [];
    const counted = db.withPlugin({
      transformQuery(args) {
        const node = args.node as { kind: string; into?: { table: { identifier: { name: string } } } };
        statements.push(node.into ? `${node.kind} ${node.into.table.identifier.name}` : node.kind);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const created = await createPersonalAccessToken(counted, clock, 3600, { userId, name: 'counted' });
    expect(statements).toEqual(['InsertQueryNode access_tokens', 'InsertQueryNode security_events']);
    const events = await db
      .selectFrom('security_events')
      .selectAll()
      .where('target_id', '=', created.summary.id)
      .execute();
    expect(events).toMatchObject([{ type: 'token.created', user_id: userId, actor: 'operator' }]);

    faults.failQueriesOn('security_events', anOutage);
    try {
      await expect(createPersonalAccessToken(db, clock, 3600, { userId, name: 'never made' })).rejects.toThrow(
        /ECONNREFUSED/,
      );
    } finally {
      faults.clear();
    }
    expect(await db.selectFrom('access_tokens').select('id').where('name', '=', 'never made').execute()).toEqual([]);
  });
});
