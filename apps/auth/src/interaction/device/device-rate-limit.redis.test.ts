import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '#test/support/browserless-flow.ts';
import { makeUser } from '#test/support/fixtures.ts';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';
import { enterCode, makeDeviceClient, startDevice } from './device.fixture.ts';

// DV-16 with REDIS_URL (D-8): wrong codes are counted across instances.
const LIMIT = 3;
let redisServer: RedisServer;
let auth: RedisAuth;

beforeAll(async () => {
  redisServer = await startRedisServer();
  auth = await startRedisAuth({
    redisUrl: redisServer.url,
    env: { RATE_LIMIT_LOGIN_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback', REDIS_TIMEOUT_MS: '500' },
  });
});
afterAll(async () => {
  await auth?.close();
  await redisServer?.stop();
});

describe('DV-16 wrong codes across instances (D-8)', () => {
  it('DV-16 D-8 wrong codes used up on instance A: instance B answers 429, even for a good code', async () => {
    const [a, b] = auth.urls as [string, string];
    const client = await makeDeviceClient(auth.system, await makeUser(auth.system));
    const { userCode } = await startDevice(auth.system, client);
    const headers = { 'x-forwarded-for': '203.0.113.30' };
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await enterCode({ ...auth.system, authUrl: a }, new CookieJar(), 'BCDFGHJK', { headers })).status).toBe(
        422,
      );
    }
    const limited = await enterCode({ ...auth.system, authUrl: b }, new CookieJar(), userCode, { headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toContain('"device-code-ip-shared"');
  });
});
