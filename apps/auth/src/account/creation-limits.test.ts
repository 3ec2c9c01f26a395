// HD-14: one user can no longer fill the database through /account. Before, 12 clients and 12
// tokens in one burst were all accepted, and nothing stopped a thousand more. Now each user may
// hold MAX_CLIENTS_PER_USER active clients and MAX_TOKENS_PER_USER active personal access
// tokens (409 `limit_reached` past them, saying how to make room), the cap holds under
// concurrent creations, and creations are limited per user in time (429 with Retry-After).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@latchkey/config';
import { makeClient, makePat, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken, type AccountCall } from './account.fixture.ts';

const CAP = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

let n = 0;
const clientBody = () => ({ name: `App ${(n += 1)}`, redirect_uri: 'https://app.example/callback' });
const tokenBody = (extra: Record<string, unknown> = {}) => ({ name: `Token ${(n += 1)}`, ...extra });

async function signedIn(system: TestSystem, name: string) {
  const user = await makeUser(system, name);
  return { user, token: await issuePortalToken(system, user) };
}

async function rows(system: TestSystem, table: 'clients' | 'access_tokens'): Promise<number> {
  return (await system.db.selectFrom(table).select('id').execute()).length;
}

async function activeClients(system: TestSystem, ownerId: string): Promise<number> {
  const rows = await system.db
    .selectFrom('clients')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.length;
}

async function activePats(system: TestSystem, userId: string): Promise<number> {
  const rows = await system.db
    .selectFrom('access_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'pat')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', system.clock.now())
    .execute();
  return rows.length;
}

function expectLimitReached(res: AccountCall, what: RegExp): void {
  expect(res.status).toBe(409);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.body).toEqual({ error: 'limit_reached', error_description: expect.stringMatching(what) });
  expect(res.body.error_description).toMatch(/Revoke/);
}

describe('HD-14 caps (MAX_CLIENTS_PER_USER=3, MAX_TOKENS_PER_USER=3)', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startSystem({
      MAX_CLIENTS_PER_USER: String(CAP),
      MAX_TOKENS_PER_USER: String(CAP),
      RATE_LIMIT_CREATE_PER_10_MINUTES: '1000',
    });
    // Warm the paths (the password checker's dictionaries, compiled queries) so that the
    // concurrent requests below arrive together, as an attacker's burst does.
    const { token } = await signedIn(system, 'Wendy Warm');
    await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() });
    await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody() });
  });
  afterAll(async () => {
    await system?.close();
  });

  it('HD-14 the 4th client is refused with 409 limit_reached naming the cap and how to make room; nothing is stored', async () => {
    const { token } = await signedIn(system, 'Cass Cap');
    for (let i = 0; i < CAP; i += 1) {
      expect((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).status).toBe(201);
    }
    const before = await rows(system, 'clients');
    const refused = await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() });
    expectLimitReached(refused, /already have 3 active clients/);
    expect(refused.text).not.toContain('client_secret');
    expect(await rows(system, 'clients')).toBe(before);
  });

  it('HD-14 revoking a client makes room for exactly one more; the cap is per user', async () => {
    const { token } = await signedIn(system, 'Rhea Room');
    const ids: string[] = [];
    for (let i = 0; i < CAP; i += 1) {
      ids.push((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).body.client.id);
    }
    expect((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).status).toBe(409);
    expect((await callAccount(system, 'POST', `/account/clients/${ids[0]}/revoke`, { token })).status).toBe(200);
    expect((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).status).toBe(201);
    expect((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).status).toBe(409);
    // Another user is not affected by Rhea's clients.
    const other = await signedIn(system, 'Otto Other');
    expect(
      (await callAccount(system, 'POST', '/account/clients', { token: other.token, json: clientBody() })).status,
    ).toBe(201);
  });

  it('HD-14 the 4th personal access token is refused; revoking one, or one expiring, makes room', async () => {
    const { user, token } = await signedIn(system, 'Tara Tokens');
    const ids: string[] = [];
    for (const extra of [{ expires_in_days: 1 }, {}, {}]) {
      const res = await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody(extra) });
      expect(res.status).toBe(201);
      ids.push(res.body.token.id);
    }
    const before = await rows(system, 'access_tokens');
    const refused = await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody() });
    expectLimitReached(refused, /already have 3 active personal access tokens/);
    expect(refused.body.error_description).toMatch(/expired tokens do not count/);
    expect(refused.text).not.toMatch(/lkp_/);
    expect(await rows(system, 'access_tokens')).toBe(before);

    expect((await callAccount(system, 'POST', `/account/tokens/${ids[1]}/revoke`, { token })).status).toBe(200);
    expect((await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody() })).status).toBe(201);
    expect((await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody() })).status).toBe(409);

    // The one-day token expires: it no longer counts.
    system.clock.advance(DAY_MS + 1000);
    expect((await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody() })).status).toBe(201);
    expect(await activePats(system, user.id)).toBe(CAP);
  });

  /** 20 creations at once; the statuses sorted, 201 first. */
  async function burst(token: string, path: '/account/clients' | '/account/tokens'): Promise<number[]> {
    const json = path === '/account/clients' ? clientBody : tokenBody;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callAccount(system, 'POST', path, { token, json: json() })),
    );
    return answers.map((a) => a.status).sort();
  }
  const onlyCreated = (created: number) => [
    ...Array<number>(created).fill(201),
    ...Array<number>(20 - created).fill(409),
  ];

  it('HD-14 20 concurrent client creations from none add exactly 3, and at cap - 1 exactly one', async () => {
    const { user, token } = await signedIn(system, 'Rex Race');
    expect(await burst(token, '/account/clients')).toEqual(onlyCreated(CAP));
    expect(await activeClients(system, user.id)).toBe(CAP);

    const [client] = (await callAccount(system, 'GET', '/account/clients', { token })).body;
    expect((await callAccount(system, 'POST', `/account/clients/${client.id}/revoke`, { token })).status).toBe(200);
    expect(await burst(token, '/account/clients')).toEqual(onlyCreated(1));
    expect(await activeClients(system, user.id)).toBe(CAP);
  });

  it('HD-14 20 concurrent token creations from none add exactly 3, and at cap - 1 exactly one', async () => {
    const { user, token } = await signedIn(system, 'Ria Race');
    expect(await burst(token, '/account/tokens')).toEqual(onlyCreated(CAP));
    expect(await activePats(system, user.id)).toBe(CAP);

    const [first] = (await callAccount(system, 'GET', '/account/tokens', { token })).body;
    expect((await callAccount(system, 'POST', `/account/tokens/${first.id}/revoke`, { token })).status).toBe(200);
    expect(await burst(token, '/account/tokens')).toEqual(onlyCreated(1));
    expect(await activePats(system, user.id)).toBe(CAP);
  });

  it('HD-14 the operators’ path (core without a cap, as the CLI calls it) is not capped', async () => {
    const { user } = await signedIn(system, 'Ops Owner');
    for (let i = 0; i < CAP + 2; i += 1) await makeClient(system, user);
    for (let i = 0; i < CAP + 2; i += 1) await makePat(system, user);
    expect(await activeClients(system, user.id)).toBe(CAP + 2);
  });
});

describe('HD-14 creation rate (RATE_LIMIT_CREATE_PER_10_MINUTES=3)', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '3' });
  });
  afterAll(async () => {
    await system?.close();
  });

  it('HD-14 the 4th creation in 10 minutes, clients and tokens together, is 429 with Retry-After; refusals do not count', async () => {
    const { token } = await signedIn(system, 'Burst Bea');
    expect((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).status).toBe(201);
    // A form sent back for a bad field stores nothing and uses no allowance.
    const bad = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name: 'Bad', redirect_uri: 'ftp://x.example/' },
    });
    expect(bad.status).toBe(400);
    expect((await callAccount(system, 'POST', '/account/tokens', { token, json: tokenBody() })).status).toBe(201);
    expect((await callAccount(system, 'POST', '/account/clients', { token, json: clientBody() })).status).toBe(201);

    const clients = await rows(system, 'clients');
    const tokens = await rows(system, 'access_tokens');
    for (const [path, json] of [
      ['/account/tokens', tokenBody()],
      ['/account/clients', clientBody()],
    ] as const) {
      const refused = await callAccount(system, 'POST', path, { token, json });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(refused.body).toEqual({ error: 'too_many_requests', error_description: expect.stringMatching(/Wait/) });
    }
    expect(await rows(system, 'clients')).toBe(clients);
    expect(await rows(system, 'access_tokens')).toBe(tokens);

    // Per user, not per address (every portal request comes from the BFF's): another user creates.
    const other = await signedIn(system, 'Calm Cal');
    expect(
      (await callAccount(system, 'POST', '/account/tokens', { token: other.token, json: tokenBody() })).status,
    ).toBe(201);
    // Listing and revoking are not creations: still answered.
    expect((await callAccount(system, 'GET', '/account/clients', { token })).status).toBe(200);
  });
});

describe('HD-14 settings', () => {
  const base = {
    NODE_ENV: 'test',
    SESSION_SECRET: 'x'.repeat(32),
    PORTAL_CLIENT_ID: 'lkc_test',
    PORTAL_CLIENT_SECRET: 'y'.repeat(32),
  };

  it('HD-14 defaults: 100 active clients, 100 active tokens, 30 creations per 10 minutes', () => {
    const config = loadConfig(base);
    expect(config.limits).toEqual({ maxClientsPerUser: 100, maxTokensPerUser: 100 });
    expect(config.rateLimit.createPer10Minutes).toBe(30);
  });

  it('HD-14 bad values are refused at start, naming the setting', () => {
    for (const key of ['MAX_CLIENTS_PER_USER', 'MAX_TOKENS_PER_USER', 'RATE_LIMIT_CREATE_PER_10_MINUTES']) {
      for (const value of ['0', '-1', '2.5', 'ten', '1e9']) {
        expect(() => loadConfig({ ...base, [key]: value }), `${key}=${value}`).toThrow(ConfigError);
        try {
          loadConfig({ ...base, [key]: value });
        } catch (err) {
          expect((err as ConfigError).problems.join('\n')).toMatch(new RegExp(`^${key}: `, 'm'));
        }
      }
    }
  });
});
