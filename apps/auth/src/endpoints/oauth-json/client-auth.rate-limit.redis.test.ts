import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@latchkey/core';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';

// CA-07 / D-8 with REDIS_URL: failed client authentications at /oauth/token and /oauth/revoke
// are counted across instances; R-08: with Redis down the shared count fails open (requests
// are served) while the in-process limiter in front still answers 429 after the limit.
const LIMIT = 3;
let redisServer: RedisServer;
let auth: RedisAuth;
let user: User;

beforeAll(async () => {
  redisServer = await startRedisServer();
  auth = await startRedisAuth({
    redisUrl: redisServer.url,
    env: { RATE_LIMIT_TOKEN_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback', REDIS_TIMEOUT_MS: '500' },
  });
  user = await makeUser(auth.system);
});
afterAll(async () => {
  await auth?.close();
  await redisServer?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: { error?: string; access_token?: string };
}

async function post(authUrl: string, path: string, ip: string, form: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${authUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

async function exchange(authUrl: string, ip: string, creds: Awaited<ReturnType<typeof makeClient>>, secret: string) {
  const code = await makeCode(auth.system, creds.client, user);
  return post(authUrl, '/oauth/token', ip, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: creds.client.redirectUris[0]!,
    client_id: creds.client.id,
    client_secret: secret,
  });
}

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await check().catch(() => false))) {
    if (performance.now() > deadline) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('failed client authentications counted across instances (CA-07, D-8)', () => {
  it('D-8 CA-07 failures used up on instance A: instance B answers 429 slow_down with Retry-After, even with the right secret', async () => {
    const creds = await makeClient(auth.system, user);
    const [a, b] = auth.urls as [string, string];
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await exchange(a, '203.0.113.20', creds, 'lks_wrong')).status).toBe(401);
    }
    const limited = await exchange(b, '203.0.113.20', creds, creds.clientSecret);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('slow_down');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('D-8 CA-07 per client across instances and endpoints: failures at /oauth/revoke on A and /oauth/token on B share one allowance', async () => {
    const creds = await makeClient(auth.system, user);
    const [a, b] = auth.urls as [string, string];
    for (let i = 0; i < LIMIT; i += 1) {
      const answer = await post(a, '/oauth/revoke', `198.51.100.${30 + i}`, {
        token: 'lkr_whatever',
        client_id: creds.client.id,
        client_secret: 'lks_wrong',
      });
      expect(answer.status).toBe(401);
    }
    const limited = await exchange(b, '198.51.100.77', creds, 'lks_wrong-on-b');
    expect(limited.status).toBe(429);
    // HD-01: the shared per-client count slows failures only; the right secret still answers.
    expect((await exchange(b, '198.51.100.79', creds, creds.clientSecret)).status).toBe(200);
    // Another client is unaffected.
    const other = await makeClient(auth.system, user);
    expect((await exchange(b, '198.51.100.78', other, other.clientSecret)).status).toBe(200);
  });

  it('R-08 Redis killed: the shared limit fails open (a valid exchange is served 200, failures 401, none 500/503) and the in-process floor still answers 429 after the limit', async () => {
    const creds = await makeClient(auth.system, user);
    const a = auth.urls[0]!;
    redisServer.kill('SIGKILL');
    try {
      expect((await exchange(a, '192.0.2.40', creds, creds.clientSecret)).status).toBe(200);
      for (let i = 0; i < LIMIT; i += 1) {
        expect((await exchange(a, '192.0.2.41', creds, 'lks_wrong')).status).toBe(401);
      }
      const limited = await exchange(a, '192.0.2.41', creds, creds.clientSecret);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('slow_down');
    } finally {
      await redisServer.restart();
    }
  });

  it('R-08 after Redis returns (empty), and for an instance created while it was down, counts are shared again', async () => {
    redisServer.kill('SIGKILL');
    let late: string;
    try {
      late = await auth.addInstance(); // its limiters load their scripts now, and fail
    } finally {
      await redisServer.restart();
    }
    const creds = await makeClient(auth.system, user);
    const a = auth.urls[0]!;
    // Wait until the shared client is back (its reconnect back-off is at most 2 s).
    await eventually(async () => (await auth.redis.ping()) === 'PONG', 10_000);
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await exchange(a, '192.0.2.50', creds, 'lks_wrong')).status).toBe(401);
    }
    expect((await exchange(late, '192.0.2.50', creds, creds.clientSecret)).status).toBe(429);
  });
});
