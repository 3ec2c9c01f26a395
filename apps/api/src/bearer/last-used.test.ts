import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalAccessToken, type User } from '@latchkey/core';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makeUser } from '#test/support/fixtures.ts';
import { capturingLogger, startStandaloneApi } from '../testing/api-server.ts';
import { postGraphql } from '../testing/post-graphql.ts';
import { alterChar } from '#test/support/tamper.ts';

let system: TestSystem;
const NO_TIMED_FLUSH = 2 ** 31 - 1;
let user: User;

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system, 'Radia Perlman');
});
afterAll(() => system?.close());

/**
 * An API app of its own on the system's database, so the test controls close(), and with no
 * timed flush: only close() may write, however slow the machine (issue 13).
 */
function startApi() {
  return startStandaloneApi({
    config: system.config,
    db: system.db,
    clock: system.clock,
    logger: capturingLogger().logger,
    lastUsedFlushMs: NO_TIMED_FLUSH,
  });
}

async function lastUsedAt(tokenId: string): Promise<number | null> {
  const row = await system.db.selectFrom('access_tokens').select('last_used_at').where('id', '=', tokenId).executeTakeFirstOrThrow();
  return row.last_used_at === null ? null : Number(row.last_used_at);
}

describe('last use of a token is recorded without a database write per request', () => {
  it('is kept in memory while serving and written when the app closes', async () => {
    const api = await startApi();
    try {
      const { token, summary } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
        userId: user.id,
        name: 'last used',
      });
      const used = system.clock.now();
      for (let i = 0; i < 3; i++) expect((await postGraphql(api.url, { token })).status).toBe(200);
      expect(await lastUsedAt(summary.id)).toBeNull();

      system.clock.advance(60_000);
      expect((await postGraphql(api.url, { token })).status).toBe(200);
      expect(await lastUsedAt(summary.id)).toBeNull();

      await api.stop();
      await api.app.close();
      expect(await lastUsedAt(summary.id)).toBe(used + 60_000);
    } finally {
      await api.stop();
    }
  });

  it('a rejected token records nothing', async () => {
    const api = await startApi();
    const { token, summary } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
      userId: user.id,
      name: 'never used',
    });
    expect((await postGraphql(api.url, { token: alterChar(token, -1) })).status).toBe(401);
    expect((await postGraphql(api.url, { headers: { authorization: `Basic ${token}` } })).status).toBe(401);
    await api.stop();
    await api.app.close();
    expect(await lastUsedAt(summary.id)).toBeNull();
  });
});
