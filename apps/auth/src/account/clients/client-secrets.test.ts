// Issue 29: a client's secrets through the account API (SR-01..SR-05, SR-08), each checked with
// real code exchanges at POST /oauth/token. Rotation under concurrent requests (SR-07) is in
// client-secret-rotation.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClient } from '@latchkey/core';
import { makeCode, makePat, makeUser, useUsers } from '#test/support/fixtures.ts';
import { startSystem, useSystem, type TestSystem } from '#test/support/system.ts';
import {
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
} from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const system = useSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '1000', RATE_LIMIT_TOKEN_PER_MINUTE: '10000' });
const { alice, bob } = useUsers(system, { alice: 'Alice', bob: 'Bob' });
let token: string;
let bobToken: string;

beforeAll(async () => {
  token = await issuePortalToken(system, alice);
  bobToken = await issuePortalToken(system, bob);
});

interface Registered {
  id: string;
  secret: string;
}

async function register(json: Record<string, unknown> = {}): Promise<Registered> {
  const res = await callAccount(system, 'POST', '/account/clients', {
    token,
    json: { name: 'Rolling App', redirect_uri: 'https://rolling.example/cb', ...json },
  });
  expect(res.status, res.text).toBe(201);
  // The list is oldest first: a secret generated later than the client's first one, as it
  // always is outside a test with a manual clock.
  system.clock.advance(1000);
  return { id: res.body.client.client_id, secret: res.body.client_secret };
}

const secretsUrl = (clientId: string) => `/account/clients/${encodeURIComponent(clientId)}/secrets`;
const deleteUrl = (clientId: string, secretId: string) =>
  `${secretsUrl(clientId)}/${encodeURIComponent(secretId)}/delete`;

const listSecrets = (clientId: string, as = token) => callAccount(system, 'GET', secretsUrl(clientId), { token: as });
const createSecret = (clientId: string, json?: unknown, as = token) =>
  callAccount(system, 'POST', secretsUrl(clientId), { token: as, ...(json !== undefined && { json }) });
const deleteSecret = (clientId: string, secretId: string, as = token) =>
  callAccount(system, 'POST', deleteUrl(clientId, secretId), { token: as });

/** A real code exchange at POST /oauth/token with this secret (client_secret_post). */
async function tokenRequest(clientId: string, secret: string): Promise<Response> {
  const client = (await findClient(system.db, clientId))!;
  const code = await makeCode(system, client, alice);
  return exchangeCode(system, { client, clientSecret: secret }, code);
}

async function expectWorks(clientId: string, secret: string): Promise<void> {
  await expectTokenResponse(await tokenRequest(clientId, secret));
}

async function expectInvalidClient(clientId: string, secret: string): Promise<void> {
  await expectOAuthError(await tokenRequest(clientId, secret), 401, 'invalid_client');
}

async function secretRows(clientId: string) {
  return system.db.selectFrom('client_secrets').selectAll().where('client_id', '=', clientId).execute();
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('SR-01 generating a new secret', () => {
  it('SR-01 answers 201 with the new lks_ secret once; the old and the new both authenticate', async () => {
    const client = await register();
    const [first] = (await listSecrets(client.id)).body;
    const res = await createSecret(client.id);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['client_secret', 'secret', 'secrets']);
    const newSecret: string = res.body.client_secret;
    expect(newSecret).toMatch(/^lks_[0-9A-Za-z]{36}$/);
    expect(newSecret).not.toBe(client.secret);
    expect(res.body.secret).toEqual({
      id: expect.stringMatching(/^cs_/),
      last4: newSecret.slice(-4),
      created_at: iso(system.clock.now()),
      expires_at: null,
      last_used_at: null,
    });
    expect(res.body.secrets).toEqual([first, res.body.secret]);

    await expectWorks(client.id, client.secret);
    await expectWorks(client.id, newSecret);
    await expectWorks(client.id, client.secret);

    // Shown once: never listed, never stored.
    const listed = await listSecrets(client.id);
    expect(listed.text).not.toContain(newSecret);
    expect(listed.text).not.toContain(client.secret);
    const stored = await system.databaseText();
    expect(stored).not.toContain(newSecret);
    expect(stored).not.toContain(newSecret.slice(4, 34));
  });

  it('SR-01 the body is optional: none, an empty JSON object, or one naming old_secret_expires_in', async () => {
    for (const json of [undefined, {}, { old_secret_expires_in: '7d' }]) {
      const client = await register();
      const res = await createSecret(client.id, json);
      expect(res.status, JSON.stringify(json)).toBe(201);
    }
    const client = await register();
    const form = await callAccount(system, 'POST', secretsUrl(client.id), {
      token,
      body: 'old_secret_expires_in=1h',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const broken = await callAccount(system, 'POST', secretsUrl(client.id), {
      token,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(await secretRows(client.id)).toHaveLength(1);
  });
});

describe('SR-02 at most two secrets', () => {
  it('SR-02 a third is 400 limit_reached and nothing is stored; deleting one makes room for one', async () => {
    const client = await register();
    const second = await createSecret(client.id);
    const before = await secretRows(client.id);
    expect(before).toHaveLength(2);
    for (const json of [undefined, { old_secret_expires_in: '1h' }]) {
      const third = await createSecret(client.id, json);
      expect(third.status).toBe(400);
      expect(third.headers.get('cache-control')).toBe('no-store');
      expect(third.body).toEqual({ error: 'limit_reached', error_description: expect.stringMatching(/2 secrets/) });
      expect(third.body.error_description).toMatch(/Delete/);
    }
    // Nothing stored, nothing changed (no expiry was set on the old one either).
    expect(await secretRows(client.id)).toEqual(before);
    await expectWorks(client.id, client.secret);
    await expectWorks(client.id, second.body.client_secret);

    expect((await deleteSecret(client.id, second.body.secret.id)).status).toBe(200);
    expect((await createSecret(client.id)).status).toBe(201);
    expect((await createSecret(client.id)).status).toBe(400);
  });
});

describe('SR-04 deleting a secret', () => {
  it('SR-04 a deleted secret gets invalid_client on the next request; the other keeps working', async () => {
    const client = await register();
    const [old] = (await listSecrets(client.id)).body;
    const created = await createSecret(client.id);
    await expectWorks(client.id, client.secret);
    const res = await deleteSecret(client.id, old.id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual([created.body.secret]);
    await expectInvalidClient(client.id, client.secret);
    await expectWorks(client.id, created.body.client_secret);
    expect((await listSecrets(client.id)).body.map((s: { id: string }) => s.id)).toEqual([created.body.secret.id]);
    // Deleted already, or never this client's: 404.
    for (const id of [old.id, 'cs_unknown']) {
      const again = await deleteSecret(client.id, id);
      expect(again.status, id).toBe(404);
      expect(again.body.error).toBe('not_found');
    }
    const other = await register();
    const [othersSecret] = (await listSecrets(other.id)).body;
    expect((await deleteSecret(client.id, othersSecret.id)).status).toBe(404);
    await expectWorks(other.id, other.secret);
  });

  it('SR-04 the last secret cannot be deleted: 409, and it still works', async () => {
    const client = await register();
    const [only] = (await listSecrets(client.id)).body;
    const res = await deleteSecret(client.id, only.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'conflict', error_description: expect.stringMatching(/only secret/) });
    expect(await secretRows(client.id)).toHaveLength(1);
    await expectWorks(client.id, client.secret);
  });
});

describe('SR-05 the list', () => {
  it('SR-05 each secret with id, last 4, created, expires and last used, oldest first; never the secret', async () => {
    const client = await register();
    const created = await createSecret(client.id, { old_secret_expires_in: '1d' });
    const res = await listSecrets(client.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const now = system.clock.now();
    expect(res.body).toEqual([
      {
        id: expect.stringMatching(/^cs_/),
        last4: client.secret.slice(-4),
        created_at: iso(now - 1000),
        expires_at: iso(now + DAY),
        last_used_at: null,
      },
      {
        id: created.body.secret.id,
        last4: created.body.client_secret.slice(-4),
        created_at: iso(now),
        expires_at: null,
        last_used_at: null,
      },
    ]);
    expect(res.text).not.toContain(client.secret);
    expect(res.text).not.toContain(created.body.client_secret);

    // Last used: set by a successful authentication with that secret, and only that one.
    system.clock.advance(5 * 60_000);
    await expectWorks(client.id, created.body.client_secret);
    const after = (await listSecrets(client.id)).body;
    expect(after.map((s: { last_used_at: string | null }) => s.last_used_at)).toEqual([null, iso(system.clock.now())]);
    await expectInvalidClient(client.id, alterChar(client.secret, -1));
    expect((await listSecrets(client.id)).body[0].last_used_at).toBeNull();
  });
});

describe('SR-08 only the owner, and only an active confidential client', () => {
  it('SR-08 another user, an unknown client and the portal’s own client are 404 to every secrets route; nothing changes', async () => {
    const client = await register();
    const [secret] = (await listSecrets(client.id)).body;
    const before = await secretRows(client.id);
    const cases: Array<[string, string]> = [
      [client.id, bobToken],
      ['lkc_doesnotexist', token],
      [system.config.portal.clientId, token],
    ];
    for (const [id, as] of cases) {
      for (const res of [
        await listSecrets(id, as),
        await createSecret(id, undefined, as),
        await deleteSecret(id, id === client.id ? secret.id : `cs_${id}`, as),
      ]) {
        expect(res.status, id).toBe(404);
        expect(res.body.error).toBe('not_found');
        expect(res.text).not.toMatch(/lks_/);
      }
    }
    expect(await secretRows(client.id)).toEqual(before);
    expect(await secretRows(system.config.portal.clientId)).toHaveLength(1);
  });

  it('SR-08 a revoked client’s secrets cannot change (409), nor can a public client get one (409)', async () => {
    const revoked = await register();
    const created = await createSecret(revoked.id);
    await callAccount(system, 'POST', `/account/clients/${revoked.id}/revoke`, { token });
    const before = await secretRows(revoked.id);
    for (const res of [await createSecret(revoked.id), await deleteSecret(revoked.id, created.body.secret.id)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'conflict', error_description: expect.stringMatching(/revoked/) });
    }
    expect(await secretRows(revoked.id)).toEqual(before);
    await expectInvalidClient(revoked.id, created.body.client_secret);

    const pub = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name: 'Public', redirect_uri: 'http://127.0.0.1/cb', public: true },
    });
    const id: string = pub.body.client.id;
    expect((await listSecrets(id)).body).toEqual([]);
    for (const res of [await createSecret(id), await deleteSecret(id, `cs_${id}`)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'conflict', error_description: expect.stringMatching(/public client/) });
    }
    expect(await secretRows(id)).toEqual([]);
  });

  it('the secrets routes need the portal’s token (SC-08): none is 401, a personal access token 403; other methods 405', async () => {
    const client = await register();
    const pat = await makePat(system, alice);
    for (const [method, path] of [
      ['GET', secretsUrl(client.id)],
      ['POST', secretsUrl(client.id)],
      ['POST', deleteUrl(client.id, 'cs_x')],
    ] as const) {
      expect((await callAccount(system, method, path)).status, path).toBe(401);
      const res = await callAccount(system, method, path, { token: pat });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
    }
    expect(await secretRows(client.id)).toHaveLength(1);
    const wrong = await callAccount(system, 'DELETE', secretsUrl(client.id), { token });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, POST');
    const get = await callAccount(system, 'GET', deleteUrl(client.id, 'cs_x'), { token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

// Last: these move the file's clock.
describe('SR-03 the old secret’s expiry, chosen when generating', () => {
  it('SR-03 1h, 1d and 7d set when the secret in use stops working; the new one never expires', async () => {
    for (const [value, ms] of [
      ['1h', HOUR],
      ['1d', DAY],
      ['7d', 7 * DAY],
    ] as const) {
      const client = await register();
      const res = await createSecret(client.id, { old_secret_expires_in: value });
      expect(res.status).toBe(201);
      const now = system.clock.now();
      expect(res.body.secrets.map((s: { expires_at: string | null }) => s.expires_at)).toEqual([iso(now + ms), null]);
    }
  });

  it('SR-03 anything else is 400 validation_failed naming old_secret_expires_in, and nothing is stored', async () => {
    const client = await register();
    for (const value of ['2h', '1H', '30d', '', 3600, null, ['1h'], { in: '1h' }]) {
      const res = await createSecret(client.id, { old_secret_expires_in: value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field: 'old_secret_expires_in' });
      expect(res.body.error_description).toMatch(/1h, 1d, 7d/);
    }
    const rows = await secretRows(client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expires_at).toBeNull();
  });

  it('SR-03 after 1h and 1 ms the old secret gets invalid_client at the token endpoint; the new one works', async () => {
    const client = await register();
    const created = await createSecret(client.id, { old_secret_expires_in: '1h' });
    const newSecret: string = created.body.client_secret;
    system.clock.advance(HOUR - 1);
    await expectWorks(client.id, client.secret);
    system.clock.advance(2);
    await expectInvalidClient(client.id, client.secret);
    await expectWorks(client.id, newSecret);
    // Expired is gone from the list, and so the new one is now the last (SR-04: not deletable);
    // generating makes room by dropping the expired one.
    const listed = (await listSecrets(client.id)).body;
    expect(listed.map((s: { id: string }) => s.id)).toEqual([created.body.secret.id]);
    expect((await deleteSecret(client.id, created.body.secret.id)).status).toBe(409);
    const third = await createSecret(client.id);
    expect(third.status).toBe(201);
    expect(third.body.secrets.map((s: { id: string }) => s.id)).toEqual([created.body.secret.id, third.body.secret.id]);
    await expectWorks(client.id, third.body.client_secret);
    await expectInvalidClient(client.id, client.secret);
  });
});

describe('HD-14 generating secrets draws on the creation rate limit', () => {
  let limited: TestSystem;
  afterAll(async () => {
    await limited?.close();
  });

  it('HD-14 a new secret counts as a creation, with clients and tokens: past the limit 429 and nothing stored', async () => {
    limited = await startSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '3' });
    const user = await makeUser(limited, 'Rita Rate');
    const as = await issuePortalToken(limited, user);
    const created = await callAccount(limited, 'POST', '/account/clients', {
      token: as,
      json: { name: 'Limited', redirect_uri: 'https://limited.example/cb' },
    });
    const id: string = created.body.client.id;
    const second = await callAccount(limited, 'POST', secretsUrl(id), { token: as });
    expect(second.status).toBe(201);
    // Refusals do not count: the third secret is refused (SR-02) before the limit is reached.
    expect((await callAccount(limited, 'POST', secretsUrl(id), { token: as })).status).toBe(400);
    await callAccount(limited, 'POST', deleteUrl(id, second.body.secret.id), { token: as });
    const third = await callAccount(limited, 'POST', secretsUrl(id), { token: as });
    expect(third.status).toBe(201);
    await callAccount(limited, 'POST', deleteUrl(id, third.body.secret.id), { token: as });
    const refused = await callAccount(limited, 'POST', secretsUrl(id), { token: as });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toEqual({ error: 'too_many_requests', error_description: expect.stringMatching(/secrets/) });
    const rows = await limited.db.selectFrom('client_secrets').selectAll().where('client_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });
});
