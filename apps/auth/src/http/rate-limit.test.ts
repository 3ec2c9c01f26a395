import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, fetchPage, findForm } from '#test/support/browserless-flow.ts';
import { makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { expectPageSecurityHeaders } from '../authorization/authorize.fixture.ts';

let system: TestSystem;
let user: Awaited<ReturnType<typeof makeUser>>;
const LIMIT = 3;

beforeAll(async () => {
  // TRUST_PROXY lets the test present different client addresses through X-Forwarded-For.
  system = await startSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback' });
  user = await makeUser(system);
});
afterAll(async () => {
  await system?.close();
});

async function attemptSignIn(ip: string, email: string, password: string, accept = 'text/html', jar = new CookieJar()) {
  const page = await fetchPage(system, jar, '/signin', { headers: { 'x-forwarded-for': ip } });
  const form = findForm(page.html, '/signin')!;
  return fetchPage(system, jar, '/signin', {
    form: { ...form.fields, email, password },
    headers: { 'x-forwarded-for': ip, accept },
  });
}

describe('rate limits on sign-in and sign-up (429 with Retry-After)', () => {
  it('per address: after the limit of failures the next attempt is 429 with Retry-After and RateLimit headers, even with the right password', async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await attemptSignIn('203.0.113.1', `nobody${i}@example.test`, 'wrong-password')).status).toBe(422);
    }
    const limited = await attemptSignIn('203.0.113.1', user.email, user.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-policy')).toContain(`q=${LIMIT}; w=60`);
    expect(limited.headers.get('ratelimit')).toContain('r=0');
    expect(limited.location).toBeUndefined();
    expect(limited.headers.getSetCookie().some((c) => /^lk_auth_sid=s%3A/.test(c))).toBe(false);
    expect(limited.html).toContain('Too many attempts');
    expectPageSecurityHeaders(limited);
    // Another address is unaffected.
    expect((await attemptSignIn('203.0.113.2', user.email, user.password)).status).toBe(303);
  });

  it('HD-03 per account: failures for one email from rotating addresses slow its sign-in down, never refuse the right password', async () => {
    const victim = await makeUser(system);
    for (let i = 0; i < LIMIT + 3; i += 1) {
      expect((await attemptSignIn(`198.51.100.${i + 1}`, victim.email, 'wrong-password')).status).toBe(422);
    }
    // The 7th attempt on a limit of 3: (7 - 3) × 250 ms of delay before the password is checked.
    const started = performance.now();
    const owner = await attemptSignIn('198.51.100.99', victim.email.toUpperCase(), victim.password);
    const tookMs = performance.now() - started;
    expect(owner.status).toBe(303);
    expect(tookMs).toBeGreaterThanOrEqual(4 * 250 - 5);
    // Other accounts from a fresh address are unaffected.
    expect((await attemptSignIn('198.51.100.100', user.email, user.password)).status).toBe(303);
  });

  it('successful sign-ins do not count', async () => {
    for (let i = 0; i < LIMIT + 2; i += 1) {
      expect((await attemptSignIn('192.0.2.50', user.email, user.password)).status).toBe(303);
    }
  });

  it('a client asking for JSON gets a JSON 429 body', async () => {
    for (let i = 0; i < LIMIT; i += 1) await attemptSignIn('192.0.2.77', 'x@example.test', 'wrong-password');
    const limited = await attemptSignIn('192.0.2.77', 'x@example.test', 'wrong-password', 'application/json');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(limited.html)).toMatchObject({ error: 'too_many_requests' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('sign-up counts every attempt per address', async () => {
    const ip = '192.0.2.200';
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      const jar = new CookieJar();
      const page = await fetchPage(system, jar, '/signup', { headers: { 'x-forwarded-for': ip } });
      const answer = await fetchPage(system, jar, '/signup', {
        form: {
          ...findForm(page.html, '/signup')!.fields,
          name: 'Spam',
          email: `spam${i}@example.test`,
          password: 'plum orbit canvas',
        },
        headers: { 'x-forwarded-for': ip },
      });
      statuses.push(answer.status);
      if (answer.status === 429) expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(303), 429]);
    const row = await system.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', 'Spam')
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(LIMIT);
  });
});

describe('HD-13 failed sign-ins per account are capped; browsers the owner signed in with still get in', () => {
  // LIMIT 3 a minute per address: the cap is 10 × 3 = 30 failures an hour per account, and a
  // device cookie is trusted while its own failures stay within 3 an hour.
  const CAP = 10 * LIMIT;
  const DEVICE_COOKIE = 'lk_auth_device';

  /** A browser that signed in to `account` once: only its device cookie is kept (signed out). */
  async function browserThatSignedIn(ip: string, account: { email: string; password: string }) {
    const jar = new CookieJar();
    expect((await attemptSignIn(ip, account.email, account.password, 'text/html', jar)).status).toBe(303);
    const device = jar.get(DEVICE_COOKIE)!;
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(device).not.toContain(encodeURIComponent(account.email.split('@')[0]!));
    const browser = new CookieJar();
    browser.set(DEVICE_COOKIE, device);
    return browser;
  }

  /** `n` wrong guesses for `email`, all at once, each from its own address. */
  async function concurrentGuesses(prefix: string, email: string, n: number) {
    const forms = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const jar = new CookieJar();
        const ip = `${prefix}.${i + 1}`;
        const page = await fetchPage(system, jar, '/signin', { headers: { 'x-forwarded-for': ip } });
        return { jar, ip, fields: findForm(page.html, '/signin')!.fields };
      }),
    );
    const started = performance.now();
    const answers = await Promise.all(
      forms.map(({ jar, ip, fields }) =>
        fetchPage(system, jar, '/signin', {
          form: { ...fields, email, password: 'wrong-password' },
          headers: { 'x-forwarded-for': ip },
        }),
      ),
    );
    return { statuses: answers.map((a) => a.status).sort(), tookMs: performance.now() - started };
  }

  it('HD-13 40 concurrent guesses from 40 addresses: 30 are checked (and slowed, up to 4 s), 10 refused unchecked; then a fresh browser is refused even with the right password, and the owner\'s browser signs in', async () => {
    const victim = await makeUser(system);
    const owner = await browserThatSignedIn('100.64.0.1', victim);
    const { statuses, tookMs } = await concurrentGuesses('100.64.1', victim.email, CAP + 10);
    expect(statuses).toEqual([...Array<number>(CAP).fill(422), ...Array<number>(10).fill(429)]);
    // Each attempt was counted before its delay was worked out: the 30th waited the full 4 s.
    expect(tookMs).toBeGreaterThanOrEqual(4_000 - 5);

    const attacker = await attemptSignIn('100.64.2.1', victim.email.toUpperCase(), victim.password);
    expect(attacker.status).toBe(429);
    expect(attacker.location).toBeUndefined();
    expect(attacker.headers.getSetCookie().some((c) => /^lk_auth_sid=|^lk_auth_device=/.test(c))).toBe(false);
    expect(attacker.html).toContain('Too many failed sign-ins');
    expect(attacker.html).toContain('from a browser you have signed in with before');
    expect(Number(attacker.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(Number(attacker.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // No RateLimit header tells anyone how many failures the account has had.
    expect(attacker.headers.get('ratelimit')).not.toContain('signin-account');
    expectPageSecurityHeaders(attacker);
    const json = await attemptSignIn('100.64.2.2', victim.email, victim.password, 'application/json');
    expect(json.status).toBe(429);
    expect(JSON.parse(json.html)).toMatchObject({ error: 'too_many_requests' });

    // The owner's browser, from an address of its own, is neither refused nor slowed.
    const started = performance.now();
    const signedIn = await attemptSignIn('100.64.3.1', victim.email, victim.password, 'text/html', owner);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${system.authUrl}/`);
    expect(performance.now() - started).toBeLessThan(1_000);
    // An unknown email is refused alike once failed as often: the refusal tells no account apart.
    const unknown = 'nobody-hd13@example.test';
    expect((await concurrentGuesses('100.64.4', unknown, CAP)).statuses).toEqual(Array<number>(CAP).fill(422));
    expect((await attemptSignIn('100.64.5.1', unknown, 'whatever-password')).status).toBe(429);
    // Other accounts are unaffected.
    expect((await attemptSignIn('100.64.6.1', user.email, user.password)).status).toBe(303);
  });

  it('HD-13 past the cap, a device cookie for another account, a forged one, or one that failed too often itself does not get in', async () => {
    const victim = await makeUser(system);
    const owner = await browserThatSignedIn('100.65.0.1', victim);
    const otherAccount = await browserThatSignedIn('100.65.0.2', user);
    expect((await concurrentGuesses('100.65.1', victim.email, CAP)).statuses).toEqual(Array<number>(CAP).fill(422));

    expect((await attemptSignIn('100.65.2.1', victim.email, victim.password, 'text/html', otherAccount)).status).toBe(429);
    const [id, account, mac] = owner.get(DEVICE_COOKIE)!.split('.') as [string, string, string];
    const forged = new CookieJar();
    forged.set(DEVICE_COOKIE, `${id}.${account}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`);
    expect((await attemptSignIn('100.65.2.2', victim.email, victim.password, 'text/html', forged)).status).toBe(429);

    // The owner's browser may fail a few times itself (3 an hour here), rejected as usual...
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await attemptSignIn(`100.65.3.${i + 1}`, victim.email, 'typo', 'text/html', owner)).status).toBe(422);
    }
    // ...past that it counts as unknown: a stolen device cookie does not keep guessing.
    expect((await attemptSignIn('100.65.4.1', victim.email, victim.password, 'text/html', owner)).status).toBe(429);
  });
});

describe('HD-03 nobody can lock an account out by failing its sign-in', () => {
  let defaults: TestSystem;
  beforeAll(async () => {
    // The default limit (10 a minute), as deployed.
    defaults = await startSystem({ TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await defaults?.close();
  });

  it('HD-03 after 11 failures for an email from 11 addresses, the owner signs in from a twelfth with the right password', async () => {
    const owner = await makeUser(defaults);
    const attempt = async (ip: string, password: string) => {
      const jar = new CookieJar();
      const page = await fetchPage(defaults, jar, '/signin', { headers: { 'x-forwarded-for': ip } });
      return fetchPage(defaults, jar, '/signin', {
        form: { ...findForm(page.html, '/signin')!.fields, email: owner.email, password },
        headers: { 'x-forwarded-for': ip, accept: 'text/html' },
      });
    };
    for (let i = 0; i < 11; i += 1) expect((await attempt(`203.0.113.${100 + i}`, 'not-the-password')).status).toBe(422);
    const signedIn = await attempt('203.0.113.200', owner.password);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${defaults.authUrl}/`);
  });
});
