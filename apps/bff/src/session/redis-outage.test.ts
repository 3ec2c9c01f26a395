import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '#test/support/fixtures.ts';
import { PortalBrowser, type PortalResponse } from '#test/support/portal-system.ts';
import { startRedisPortal, type RedisPortal } from '#test/support/redis-portal.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';

// BF-RD-01 / R-07: Redis (the session store) down or hanging. Every /bff API call answers
// 503 + Retry-After JSON within REDIS_TIMEOUT_MS, /bff/login and /bff/callback a 503 page;
// never a 401 or a redirect to sign in (that would loop), never a crash. After Redis returns
// the BFF recovers without a restart.
const TIMEOUT_MS = 400;
/** The bound on an answer during an outage: the Redis timeout plus generous scheduling slack. */
const ANSWER_WITHIN_MS = TIMEOUT_MS + 1_000;

let redisServer: RedisServer;
let portal: RedisPortal;
let user: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  redisServer = await startRedisServer();
  portal = await startRedisPortal({ redisUrl: redisServer.url, env: { REDIS_TIMEOUT_MS: String(TIMEOUT_MS) } });
  user = await makeUser(portal.system, 'Frances Allen');
});
afterAll(async () => {
  await portal?.close();
  await redisServer?.stop();
});

async function signedIn(): Promise<PortalBrowser> {
  portal.use(0);
  const browser = new PortalBrowser(portal.view);
  expect((await browser.signIn(user)).status).toBe(302);
  expect((await browser.request('/bff/session')).status).toBe(200);
  return browser;
}

async function timed(run: () => Promise<PortalResponse>): Promise<PortalResponse & { ms: number }> {
  const started = performance.now();
  const response = await run();
  return { ...response, ms: performance.now() - started };
}

function expectUnavailableJson(response: PortalResponse & { ms: number }): void {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body).toMatchObject({ error: 'temporarily_unavailable' });
  expect(response.location).toBeUndefined();
  expect(response.ms).toBeLessThan(ANSWER_WITHIN_MS);
}

function expectUnavailablePage(response: PortalResponse & { ms: number }): void {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.location).toBeUndefined();
  expect(response.ms).toBeLessThan(ANSWER_WITHIN_MS);
}

/** Every kind of request the SPA and the browser make, through each instance. */
async function expectOutageAnswers(browser: PortalBrowser): Promise<void> {
  for (const index of [0, 1]) {
    portal.use(index);
    expectUnavailableJson(await timed(() => browser.request('/bff/session')));
    expectUnavailableJson(await timed(() => browser.request('/bff/api/me')));
    expectUnavailableJson(
      await timed(() => browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } })),
    );
    expectUnavailableJson(await timed(() => browser.request('/bff/logout', { method: 'POST' })));
    expectUnavailablePage(await timed(() => browser.navigate('/bff/login')));
    expectUnavailablePage(await timed(() => browser.navigate('/bff/callback?code=x&state=y')));
    // A browser without a session cookie is not sent to sign in either.
    const stranger = new PortalBrowser(portal.view);
    expectUnavailablePage(await timed(() => stranger.navigate('/bff/login')));
    expectUnavailableJson(await timed(() => stranger.request('/bff/session')));
  }
  expect(browser.transcript.filter((entry) => entry.startsWith('401 '))).toEqual([]);
}

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Redis outage with sessions in Redis (BF-RD-01, R-07)', () => {
  it('BF-RD-01 R-07 Redis killed (SIGKILL): 503 + Retry-After on every /bff call and page, within the timeout, no 401 and no redirect; after restart a clean 401, then signing in again works', async () => {
    const browser = await signedIn();
    redisServer.kill('SIGKILL');
    try {
      await expectOutageAnswers(browser);
    } finally {
      await redisServer.restart();
    }
    portal.use(1);
    // Reconnects on its own (back-off at most 2 s); Redis kept nothing, so the session is gone.
    await eventually(async () => (await browser.request('/bff/session')).status !== 503, 10_000);
    const after = await browser.request('/bff/session');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'unauthenticated' });
    const again = await browser.signIn(user);
    expect(again.status).toBe(302);
    for (const index of [0, 1]) {
      portal.use(index);
      expect((await browser.request('/bff/session')).status).toBe(200);
    }
  });

  it('R-07 Redis hanging (SIGSTOP): 503 within REDIS_TIMEOUT_MS for concurrent calls on both instances; after SIGCONT the same session works again', async () => {
    const browser = await signedIn();
    redisServer.kill('SIGSTOP');
    try {
      const calls = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          portal.use(i % 2);
          const view = new PortalBrowser(portal.view);
          view.jar.set('lk_portal_sid', browser.sessionCookie()!);
          return timed(() =>
            i % 3 === 0
              ? view.request('/bff/graphql', { json: { query: '{ profile { name } }' } })
              : view.request('/bff/session'),
          );
        }),
      );
      for (const call of calls) expectUnavailableJson(call);
      await expectOutageAnswers(browser);
    } finally {
      redisServer.kill('SIGCONT');
    }
    for (const index of [0, 1]) {
      portal.use(index);
      await eventually(async () => (await browser.request('/bff/session')).status === 200, 10_000);
    }
  });
});
