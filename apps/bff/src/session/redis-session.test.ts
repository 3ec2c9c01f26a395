import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { makeUser } from '#test/support/fixtures.ts';
import { PortalBrowser, sessionIdOf } from '#test/support/portal-system.ts';
import { startRedisPortal, type RedisPortal } from '#test/support/redis-portal.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';
import { SESSION_TTL_MS } from './portal-session.ts';
import { REDIS_SESSION_PREFIX, RedisPortalSessionStore } from './redis-portal-session.store.ts';
import { createTokenSealer } from './token-sealing.ts';

// DD-7 with REDIS_URL: the portal's sessions live in Redis and every BFF instance
// serves every session; the store keeps the behaviours of the database one (TS-03 sealing,
// replace never recreates, touch never writes).
let redisServer: RedisServer;
let portal: RedisPortal;
let inspect: ReturnType<typeof createClient>;
let user: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  redisServer = await startRedisServer();
  portal = await startRedisPortal({ redisUrl: redisServer.url });
  inspect = createClient({ url: redisServer.url });
  inspect.on('error', () => {});
  await inspect.connect();
  user = await makeUser(portal.system, 'Barbara Liskov');
});
afterAll(async () => {
  inspect?.destroy();
  await portal?.close();
  await redisServer?.stop();
});

async function signedIn(): Promise<{ browser: PortalBrowser; key: string }> {
  portal.use(0);
  const browser = new PortalBrowser(portal.view);
  const callback = await browser.signIn(user);
  expect(callback.status).toBe(302);
  return { browser, key: `${REDIS_SESSION_PREFIX}${sessionIdOf(browser.sessionCookie()!)}` };
}

async function commandCount(name: string): Promise<number> {
  const stats = await inspect.info('commandstats');
  const match = new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats);
  return match ? Number(match[1]) : 0;
}

describe('portal sessions in Redis (DD-7)', () => {
  it('DD-7 TS-03 a sign-in is stored under lk:portal:sess: with the session lifetime, its tokens sealed (no plaintext token in Redis), and not in the sessions table', async () => {
    const { browser, key } = await signedIn();
    const ttl = await inspect.pTTL(key);
    expect(ttl).toBeGreaterThan(SESSION_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(SESSION_TTL_MS);
    const value = (await inspect.get(key))!;
    const stored = JSON.parse(value) as {
      portal: { user: { id: string }; tokens: { accessToken: string; refreshToken: string } };
    };
    expect(stored.portal.user.id).toBe(user.id);
    const sealer = createTokenSealer(portal.system.config.sessionSecret);
    const accessToken = sealer.open(stored.portal.tokens.accessToken)!;
    const refreshToken = sealer.open(stored.portal.tokens.refreshToken)!;
    expect(accessToken).toMatch(/^lko_/);
    expect(refreshToken).toMatch(/^lkr_/);
    expect(value).not.toContain(accessToken);
    expect(value).not.toContain(refreshToken);
    expect(value).not.toMatch(/lk[or]_[A-Za-z0-9]{36}/);
    const rows = await portal.system.db.selectFrom('sessions').select('sid').where('sid', 'like', 'portal:%').execute();
    expect(rows).toEqual([]);
    expect((await browser.request('/bff/session')).status).toBe(200);
  });

  it('DD-7 a session signed in through instance A works through instance B (Express routes and the /bff/graphql fast path); signing out on B ends it on A', async () => {
    const { browser, key } = await signedIn();
    portal.use(1);
    const me = await browser.request('/bff/session');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(user.email);
    const graphql = await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data.profile.name).toBe('Barbara Liskov');
    expect((await browser.request('/bff/api/me')).status).toBe(200);

    const cookie = browser.jar.header()!;
    expect((await browser.request('/bff/logout', { method: 'POST' })).status).toBe(204);
    expect(await inspect.exists(key)).toBe(0);
    portal.use(0);
    const after = await browser.request('/bff/session', { headers: { cookie } });
    expect(after.status).toBe(401);
    const afterFast = await browser.request('/bff/graphql', {
      json: { query: '{ profile { name } }' },
      headers: { cookie },
    });
    expect(afterFast.status).toBe(401);
  });

  it('reading sessions on the hot path writes nothing to Redis (touch is a no-op, no rolling expiry)', async () => {
    const { browser, key } = await signedIn();
    const ttlBefore = await inspect.pTTL(key);
    const writesBefore = (await commandCount('set')) + (await commandCount('expire')) + (await commandCount('pexpire'));
    for (const index of [0, 1, 0, 1]) {
      portal.use(index);
      expect((await browser.request('/bff/session')).status).toBe(200);
      expect((await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } })).status).toBe(200);
    }
    const writesAfter = (await commandCount('set')) + (await commandCount('expire')) + (await commandCount('pexpire'));
    expect(writesAfter).toBe(writesBefore);
    expect(await inspect.pTTL(key)).toBeLessThanOrEqual(ttlBefore);
  });

  it('replace (SET XX KEEPTTL) keeps the expiry, and never recreates a session destroyed meanwhile', async () => {
    const store = new RedisPortalSessionStore(portal.redis!, SESSION_TTL_MS);
    const expires = new Date(Date.now() + 60_000);
    const data = { cookie: { originalMaxAge: 60_000, expires } } as never;
    await new Promise<void>(
      (resolve, reject) => void store.set('replace-me', data, (err) => (err ? reject(err) : resolve())),
    );
    const key = `${REDIS_SESSION_PREFIX}replace-me`;
    const ttl = await inspect.pTTL(key);
    expect(ttl).toBeGreaterThan(55_000);

    expect(await store.replace('replace-me', { ...(data as object), marker: 1 } as never)).toBe(true);
    expect(JSON.parse((await inspect.get(key))!)).toMatchObject({ marker: 1 });
    const ttlAfter = await inspect.pTTL(key);
    expect(ttlAfter).toBeGreaterThan(50_000);
    expect(ttlAfter).toBeLessThanOrEqual(ttl);

    await store.remove('replace-me');
    expect(await store.replace('replace-me', data)).toBe(false);
    expect(await inspect.exists(key)).toBe(0);
    expect(await store.readSession('replace-me')).toBeNull();
  });
});
