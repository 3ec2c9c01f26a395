import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { CookieJar, fetchPage, findForm } from '#test/support/browserless-flow.ts';
import { makeUser } from '#test/support/fixtures.ts';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';
import { REDIS_SESSION_PREFIX, SESSION_TTL_MS } from './session.ts';

// DD-7: with REDIS_URL the authorization server's sessions live in Redis, shared by
// every instance; BF-RD-01 / R-07 on this server: a Redis outage is a 503, never a sign-in page.
let redisServer: RedisServer;
let auth: RedisAuth;
let inspect: ReturnType<typeof createClient>;
let user: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  redisServer = await startRedisServer();
  auth = await startRedisAuth({ redisUrl: redisServer.url, env: { REDIS_TIMEOUT_MS: '500' } });
  inspect = createClient({ url: redisServer.url, socket: { reconnectStrategy: 100 } });
  inspect.on('error', () => {});
  await inspect.connect();
  user = await makeUser(auth.system);
});
afterAll(async () => {
  inspect?.destroy();
  await auth?.close();
  await redisServer?.stop();
});

function sessionIdOf(jar: CookieJar): string {
  const value = decodeURIComponent(jar.get('lk_auth_sid') ?? '');
  const match = /^s:([^.]+)\./.exec(value);
  if (!match) throw new Error('no signed session cookie');
  return match[1]!;
}

async function signIn(authUrl: string, jar: CookieJar) {
  const page = await fetchPage({ authUrl }, jar, '/signin');
  const form = findForm(page.html, '/signin')!;
  return fetchPage({ authUrl }, jar, '/signin', {
    form: { ...form.fields, email: user.email, password: user.password },
  });
}

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await check().catch(() => false))) {
    if (performance.now() > deadline) throw new Error(`not true within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('authorization server sessions in Redis (DD-7)', () => {
  it('DD-7 a sign-in is stored in Redis under lk:auth:sess: with the cookie lifetime, not in the sessions table', async () => {
    const jar = new CookieJar();
    expect((await signIn(auth.urls[0]!, jar)).status).toBe(303);
    const sid = sessionIdOf(jar);
    const key = `${REDIS_SESSION_PREFIX}${sid}`;
    const ttl = await inspect.pTTL(key);
    expect(ttl).toBeGreaterThan(SESSION_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(SESSION_TTL_MS);
    expect(JSON.parse((await inspect.get(key))!)).toMatchObject({ userId: user.id });
    const rows = await auth.system.db.selectFrom('sessions').select('sid').execute();
    expect(rows.filter((r) => r.sid.includes(sid))).toEqual([]);
  });

  it('HD-06 300 cookie-less page views on two instances add no Redis key; a form from one instance posts to the other', async () => {
    const keys = async () => (await inspect.keys(`${REDIS_SESSION_PREFIX}*`)).length;
    const before = await keys();
    const pages = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetchPage({ authUrl: auth.urls[i % 2]! }, new CookieJar(), i % 3 === 0 ? '/signup' : '/signin'),
      ),
    );
    expect(pages.every((page) => page.status === 200)).toBe(true);
    expect(await keys()).toBe(before);
    // The visitor cookie's signature is the instances' shared secret: the form is good on either.
    const jar = new CookieJar();
    const page = await fetchPage({ authUrl: auth.urls[0]! }, jar, '/signin');
    const form = findForm(page.html, '/signin')!;
    const answer = await fetchPage({ authUrl: auth.urls[1]! }, jar, '/signin', {
      form: { ...form.fields, email: user.email, password: user.password },
    });
    expect(answer.status).toBe(303);
    expect(await keys()).toBe(before + 1);
  });

  it('DD-7 a session started on one instance is honoured by another (signed in: /signin sends the user on)', async () => {
    const jar = new CookieJar();
    await signIn(auth.urls[0]!, jar);
    const onOther = await fetchPage({ authUrl: auth.urls[1]! }, jar, '/signin');
    expect(onOther.status).toBe(303);
    // Signing out on the second instance ends it on the first.
    const home = await fetchPage({ authUrl: auth.urls[1]! }, jar, '/');
    const signOut = findForm(home.html, '/signout');
    expect(signOut).toBeDefined();
    await fetchPage({ authUrl: auth.urls[1]! }, jar, '/signout', { form: signOut!.fields });
    expect((await fetchPage({ authUrl: auth.urls[0]! }, jar, '/signin')).status).toBe(200);
  });

  it('BF-RD-01 / R-07 Redis killed: pages answer 503 with Retry-After (never the sign-in form), and sessions work again after Redis returns', async () => {
    const jar = new CookieJar();
    await signIn(auth.urls[0]!, jar);
    redisServer.kill('SIGKILL');
    try {
      for (const url of auth.urls) {
        const started = performance.now();
        const page = await fetchPage({ authUrl: url }, jar, '/signin');
        expect(performance.now() - started).toBeLessThan(1_500);
        expect(page.status).toBe(503);
        expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(page.html).not.toContain('name="password"');
        const fresh = await fetchPage({ authUrl: url }, new CookieJar(), '/signin');
        expect(fresh.status).toBe(503);
      }
    } finally {
      await redisServer.restart();
    }
    await eventually(
      async () => (await fetchPage({ authUrl: auth.urls[0]! }, new CookieJar(), '/signin')).status === 200,
      10_000,
    );
    // Redis kept nothing (no persistence): the old session is simply gone, and signing in works.
    expect((await fetchPage({ authUrl: auth.urls[0]! }, jar, '/signin')).status).toBe(200);
    const again = new CookieJar();
    expect((await signIn(auth.urls[1]!, again)).status).toBe(303);
  });
});
