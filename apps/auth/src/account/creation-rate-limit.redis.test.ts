// HD-14 with REDIS_URL (D-8): the creation rate is counted per user across every instance, so
// a burst spread over instances behind a load balancer gets no more than one instance would.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeUser } from '#test/support/fixtures.ts';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';
import { issuePortalToken } from './account.fixture.ts';

const LIMIT = 3;
let redisServer: RedisServer;
let auth: RedisAuth;

beforeAll(async () => {
  redisServer = await startRedisServer();
  auth = await startRedisAuth({ redisUrl: redisServer.url, env: { RATE_LIMIT_CREATE_PER_10_MINUTES: String(LIMIT) } });
});
afterAll(async () => {
  await auth?.close();
  await redisServer?.stop();
});

function create(url: string, token: string, path: '/account/clients' | '/account/tokens', name: string) {
  const json = path === '/account/clients' ? { name, redirect_uri: 'https://app.example/callback' } : { name };
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
}

it('HD-14 creations spread over two instances share one allowance: the 4th, on either, is 429 with Retry-After', async () => {
  const [a, b] = auth.urls as [string, string];
  const token = await issuePortalToken(auth.system, await makeUser(auth.system, 'Spread Sam'));
  expect((await create(a, token, '/account/clients', 'One')).status).toBe(201);
  expect((await create(b, token, '/account/tokens', 'Two')).status).toBe(201);
  expect((await create(a, token, '/account/tokens', 'Three')).status).toBe(201);
  // Instance B has seen one creation only: the shared count refuses it.
  const refused = await create(b, token, '/account/clients', 'Four');
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(refused.headers.get('ratelimit-policy')).toContain('"account-create-shared"');
  expect(await refused.json()).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
});
