import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { createPersonalAccessToken, createUser, ManualClock } from '@latchkey/core';
import { generateToken, TokenPrefix } from '@latchkey/credentials';
import { createDatabase, databaseOptionsFor, sqlitePathFor, type Db } from '@latchkey/db';
import { startPostgres, type PostgresCluster } from '#test/support/postgres.ts';
import { testEngine } from '#test/support/test-database.ts';
import { capturingLogger, startStandaloneApi, type StandaloneApi } from '../testing/api-server.ts';
import { invalidTokenChallenge, postGraphql, type GraphqlAnswer } from '../testing/post-graphql.ts';

/** D-10: the answer when the token could not be checked. */
function expectUnavailable(answer: GraphqlAnswer): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(answer.headers.get('www-authenticate')).toBeNull();
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.json.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
  expect(answer.text).not.toMatch(/sqlite|postgres|no such table|ECONN|timeout|at .*\.ts/i);
}

// A real SQLite file whose schema was never migrated: every token lookup fails inside the
// database driver, as it would with a corrupt or unreachable database.
describe.runIf(testEngine() === 'sqlite')('D-10 the token cannot be checked (SQLite)', () => {
  let dataDir: string;
  let db: Db;
  let api: StandaloneApi;
  let lines: string[];
  /** API_URL, which the challenges name (the server listens elsewhere). */
  let apiUrl: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'latchkey-api-dbdown-'));
    db = createDatabase({ sqlitePath: sqlitePathFor(dataDir) });
    // The handle is closed under the server (shutting down, pool gone): an outage. A file
    // without the schema would be a wrongly deployed database, answered 500 (issue 16).
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    await db.destroy();
    const captured = capturingLogger();
    lines = captured.lines;
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    apiUrl = config.api.url;
    api = await startStandaloneApi({ config, db, clock: new ManualClock(), logger: captured.logger });
  });
  afterAll(async () => {
    await api?.stop();
    await db?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After and a JSON error, never 401 invalid_token', async () => {
    const token = generateToken(TokenPrefix.personalAccessToken);
    expectUnavailable(await postGraphql(api.url, { token }));
    // Logged for the operator, without the token.
    expect(lines.some((line) => line.includes('database unavailable'))).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
  });

  it('a token that fails the format check is still refused as invalid_token without touching the database', async () => {
    const answer = await postGraphql(api.url, { token: 'lkp_notavalidtokenatall' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(invalidTokenChallenge(apiUrl));
  });
});

// PostgreSQL on a cluster of this file's own, so that it can be stopped and frozen: a valid
// token must get 503 (never 401) while the server is away, and work again once it is back,
// with the same API and pool (no restart).
describe.runIf(testEngine() === 'postgres')('D-10 the token cannot be checked (PostgreSQL)', () => {
  const TIMEOUT_MS = 1000;
  let cluster: PostgresCluster;
  let dataDir: string;
  let db: Db;
  let api: StandaloneApi;
  let lines: string[];
  let token: string;
  /** API_URL, which the challenges name (the server listens elsewhere). */
  let apiUrl: string;

  beforeAll(async () => {
    cluster = await startPostgres({ maxConnections: 20 });
    dataDir = mkdtempSync(join(tmpdir(), 'latchkey-api-pgdown-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: await cluster.createDatabase(),
      DATABASE_POOL_MAX: '4',
      DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
      LOG_LEVEL: 'silent',
    });
    apiUrl = config.api.url;
    db = createDatabase(databaseOptionsFor(config));
    const clock = new ManualClock();
    const user = await createUser(db, clock, { email: 'ada@example.test', password: 'quiet lantern meadow', name: 'Ada' });
    ({ token } = await createPersonalAccessToken(db, clock, 3600, { userId: user.id, name: 'outage' }));
    const captured = capturingLogger();
    lines = captured.lines;
    api = await startStandaloneApi({ config, db, clock, logger: captured.logger });
  });
  afterAll(async () => {
    await api?.stop();
    await api?.app.close().catch(() => {});
    await db?.destroy();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const profile = () => postGraphql(api.url, { token });

  it('R-05 server stopped: 503 with Retry-After, never 401; 200 again once it is back, without a restart', async () => {
    expect((await profile()).status).toBe(200);
    await cluster.shutdown('fast');
    const started = performance.now();
    expectUnavailable(await profile());
    expectUnavailable(await profile());
    // Connection refused is immediate: no waiting for the timeout.
    expect(performance.now() - started).toBeLessThan(2 * TIMEOUT_MS);
    expect(lines.some((line) => line.includes('database unavailable'))).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
    await cluster.start();
    const answer = await profile();
    expect(answer.status).toBe(200);
    expect(answer.json.data.profile.name).toBe('Ada');
  });

  it('R-06 server frozen (SIGSTOP): 503 within the timeout, never 401; 200 again after SIGCONT', async () => {
    expect((await profile()).status).toBe(200);
    cluster.kill('SIGSTOP');
    try {
      for (let i = 0; i < 2; i += 1) {
        const started = performance.now();
        expectUnavailable(await profile());
        // The query (or the connection attempt) gives up at DATABASE_TIMEOUT_MS, not at TCP's minutes.
        expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
      }
    } finally {
      cluster.kill('SIGCONT');
    }
    // The connections that timed out were dropped, not handed to the next request.
    const answer = await profile();
    expect(answer.status).toBe(200);
    expect(answer.json.data.profile.name).toBe('Ada');
  });

  it('a token that fails the format check is refused as invalid_token without touching the database', async () => {
    await cluster.shutdown('fast');
    try {
      const answer = await postGraphql(api.url, { token: 'lkp_notavalidtokenatall' });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(invalidTokenChallenge(apiUrl));
    } finally {
      await cluster.start();
    }
  });
});
