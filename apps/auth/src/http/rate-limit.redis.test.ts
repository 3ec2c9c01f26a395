import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, fetchPage, findForm } from '#test/support/browserless-flow.ts';
import { makeUser } from '#test/support/fixtures.ts';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';

// D-8 with REDIS_URL: sign-in and sign-up limits are counted across instances in Redis, and
// the in-process limiter stays in front; R-08: with Redis down the shared count fails open
// and the in-process floor still answers 429.
const LIMIT = 3;
let redisServer: RedisServer;
let auth: RedisAuth;
let user: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  redisServer = await startRedisServer();
  auth = await startRedisAuth({
    redisUrl: redisServer.url,
    env: { RATE_LIMIT_LOGIN_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback', REDIS_TIMEOUT_MS: '500' },
  });
  user = await makeUser(auth.system);
});
afterAll(async () => {
  await auth?.close();
  await redisServer?.stop();
});

async function attemptSignIn(authUrl: string, ip: string, email: string, password: string, jar = new CookieJar()) {
  const headers = { 'x-forwarded-for': ip };
  const page = await fetchPage({ authUrl }, jar, '/signin', { headers });
  const fields = page.status === 200 ? findForm(page.html, '/signin')!.fields : {};
  return fetchPage({ authUrl }, jar, '/signin', { form: { ...fields, email, password }, headers });
}

async function signUp(authUrl: string, ip: string, n: number) {
  const jar = new CookieJar();
  const headers = { 'x-forwarded-for': ip };
  const page = await fetchPage({ authUrl }, jar, '/signup', { headers });
  return fetchPage({ authUrl }, jar, '/signup', {
    form: {
      ...findForm(page.html, '/signup')!.fields,
      name: 'Spam',
      email: `spam-${ip}-${n}@example.test`,
      password: 'plum orbit canvas',
    },
    headers,
  });
}

describe('sign-in and sign-up limits across instances (D-8)', () => {
  it('D-8 sign-in failures used up on instance A: instance B answers 429 with Retry-After, even for the right password', async () => {
    const [a, b] = auth.urls as [string, string];
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await attemptSignIn(a, '203.0.113.10', `nobody${i}@example.test`, 'wrong-password')).status).toBe(422);
    }
    const limited = await attemptSignIn(b, '203.0.113.10', user.email, user.password);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('ratelimit-policy')).toContain('"signin-ip-shared"');
    // Another address is unaffected on both.
    expect((await attemptSignIn(b, '203.0.113.11', user.email, user.password)).status).toBe(303);
  });

  it('D-8 HD-03 per account across instances: failures for one email spread over A and B slow its sign-in on either, never refuse the right password', async () => {
    const victim = await makeUser(auth.system);
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const url = auth.urls[i % 2]!;
      expect((await attemptSignIn(url, `198.51.100.${i + 1}`, victim.email, 'wrong-password')).status).toBe(422);
    }
    // B alone saw 2 failures (no delay yet); counted across instances it is the 6th attempt
    // on a limit of 3: (6 - 3) × 250 ms before the password is checked.
    const started = performance.now();
    const owner = await attemptSignIn(auth.urls[1]!, '198.51.100.99', victim.email, victim.password);
    expect(owner.status).toBe(303);
    expect(performance.now() - started).toBeGreaterThanOrEqual(3 * 250 - 5);
  });

  it('D-8 sign-up attempts are counted across instances', async () => {
    const ip = '192.0.2.210';
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i += 1) statuses.push((await signUp(auth.urls[i % 2]!, ip, i)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(303), 429]);
  });

  it('D-8 HD-13 the cap on failed sign-ins per account holds across instances: 30 failures spread over A and B, then a fresh browser is refused on B even with the right password, and the browser that signed in on A gets in on B', async () => {
    const [a, b] = auth.urls as [string, string];
    const victim = await makeUser(auth.system);
    const signedIn = new CookieJar();
    expect((await attemptSignIn(a, '100.66.0.1', victim.email, victim.password, signedIn)).status).toBe(303);
    const owner = new CookieJar();
    owner.set('lk_auth_device', signedIn.get('lk_auth_device')!);
    // The cap is 10 × 3 = 30 an hour; each instance alone sees 15, below it.
    const statuses = await Promise.all(
      Array.from({ length: 10 * LIMIT }, (_, i) =>
        attemptSignIn(auth.urls[i % 2]!, `100.66.1.${i + 1}`, victim.email, 'wrong-password').then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array<number>(10 * LIMIT).fill(422));
    const refused = await attemptSignIn(b, '100.66.2.1', victim.email, victim.password);
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('Too many failed sign-ins');
    expect((await attemptSignIn(a, '100.66.2.2', victim.email, victim.password)).status).toBe(429);
    expect((await attemptSignIn(b, '100.66.3.1', victim.email, victim.password, owner)).status).toBe(303);
  });

  it('R-08 Redis killed: sign-in attempts are not answered 500 (503: the session store is down), and the in-process floor still answers 429 after the limit', async () => {
    const a = auth.urls[0]!;
    redisServer.kill('SIGKILL');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT; i += 1) {
        statuses.push((await attemptSignIn(a, '192.0.2.99', user.email, 'wrong-password')).status);
      }
      expect(statuses).toEqual(Array<number>(LIMIT).fill(503));
      const limited = await attemptSignIn(a, '192.0.2.99', user.email, user.password);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(auth.system.logs.some((l) => l.includes('shared rate limit unavailable'))).toBe(true);
    } finally {
      await redisServer.restart();
    }
  });
});
