// DR-14 with REDIS_URL (D-8): registrations are counted per address across every instance, so
// a burst spread over instances behind a load balancer gets no more than one instance would.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';
import { publicMetadata } from './register.fixture.ts';

const LIMIT = 3;
let redisServer: RedisServer;
let auth: RedisAuth;

beforeAll(async () => {
  redisServer = await startRedisServer();
  auth = await startRedisAuth({
    redisUrl: redisServer.url,
    env: { DYNAMIC_CLIENT_REGISTRATION: 'open', RATE_LIMIT_REGISTER_PER_HOUR: String(LIMIT) },
  });
});
afterAll(async () => {
  await auth?.close();
  await redisServer?.stop();
});

function registerAt(url: string) {
  return fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(publicMetadata()),
  });
}

it('DR-14 registrations spread over two instances share one allowance: the 4th, on either, is 429 with Retry-After', async () => {
  const [a, b] = auth.urls as [string, string];
  expect((await registerAt(a)).status).toBe(201);
  expect((await registerAt(b)).status).toBe(201);
  expect((await registerAt(a)).status).toBe(201);
  // Instance B has seen one registration only: the shared count refuses it.
  const refused = await registerAt(b);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(refused.headers.get('ratelimit-policy')).toContain('"register-address-shared"');
  expect(await refused.json()).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
});
