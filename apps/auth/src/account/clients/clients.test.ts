// The API clients page's endpoints: list, create (secret once) and revoke (every token dies).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateAccessToken,
  authenticateClient,
  findClient,
  InvalidClient,
  InvalidToken,
  redeemAuthorizationCode,
  refreshTokens,
  type TokenPair,
} from '@latchkey/core';
import { makeClient, makeCode, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken, issueThirdPartyTokens, lifetimesOf } from '../account.fixture.ts';

const system = useSystem();
const { alice, bob } = useUsers(system, { alice: 'Alice', bob: 'Bob' });
let aliceToken: string;
let bobToken: string;

async function clientRows(): Promise<number> {
  return (await system.db.selectFrom('clients').select('id').execute()).length;
}

/** The token endpoint's order for a code exchange: client authentication, then redemption. */
async function exchangeCode(clientId: string, secret: string, code: string): Promise<TokenPair> {
  const client = await authenticateClient(system.db, clientId, secret);
  return redeemAuthorizationCode(system.db, system.clock, lifetimesOf(system), {
    client,
    code,
    redirectUri: client.redirectUris[0]!,
    codeVerifier: undefined,
  });
}

/** The token endpoint's order for a refresh: client authentication, then rotation. */
async function refreshAs(clientId: string, secret: string, refreshToken: string): Promise<TokenPair> {
  const client = await authenticateClient(system.db, clientId, secret);
  return refreshTokens(system.db, system.clock, lifetimesOf(system), client, refreshToken);
}

beforeAll(async () => {
  aliceToken = await issuePortalToken(system, alice);
  bobToken = await issuePortalToken(system, bob);
});

describe('POST /account/clients', () => {
  it('creates a client: 201 with the client and its secret, no-store; its id has its own prefix (P-06)', async () => {
    const res = await callAccount(system, 'POST', '/account/clients', {
      token: aliceToken,
      json: { name: '  Weather widget ', redirect_uri: 'https://weather.example/callback', ignored: 'yes' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { client, client_secret: secret } = res.body;
    expect(Object.keys(res.body).sort()).toEqual(['client', 'client_secret']);
    expect(client).toEqual({
      id: client.client_id,
      client_id: expect.stringMatching(/^lkc_[0-9A-Za-z]{24}$/),
      name: 'Weather widget',
      redirect_uri: 'https://weather.example/callback',
      redirect_uris: ['https://weather.example/callback'],
      post_logout_redirect_uri: null,
      description: null,
      client_uri: null,
      policy_uri: null,
      tos_uri: null,
      public: false,
      id_token_signed_response_alg: 'RS256',
      device_grant: false,
      created_at: new Date(system.clock.now()).toISOString(),
      status: 'active',
      revoked_at: null,
    });
    expect(secret).toMatch(/^lks_[0-9A-Za-z]{36}$/);
    // The secret works for client authentication (RFC 6749 §2.3.1) and only its digest is stored.
    expect((await authenticateClient(system.db, client.client_id, secret)).ownerId).toBe(alice.id);
    const row = await system.db
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', client.client_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.require_pkce).toBe(0);
    expect(row.first_party).toBe(0);
  });

  it('accepts loopback http redirect URLs for native and local apps', async () => {
    for (const uri of ['http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]:3000/cb']) {
      const res = await callAccount(system, 'POST', '/account/clients', {
        token: aliceToken,
        json: { name: 'Local', redirect_uri: uri },
      });
      expect(res.status, uri).toBe(201);
      expect(res.body.client.redirect_uri).toBe(uri);
    }
  });

  it('SO-01 registers an optional post-logout redirect URL, under the redirect URL’s rules', async () => {
    const res = await callAccount(system, 'POST', '/account/clients', {
      token: aliceToken,
      json: {
        name: 'With sign-out',
        redirect_uri: 'https://weather.example/callback',
        post_logout_redirect_uri: 'https://weather.example/signed-out',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.client.post_logout_redirect_uri).toBe('https://weather.example/signed-out');
    for (const uri of ['http://weather.example/bye', 'https://weather.example/bye#x', 42]) {
      const before = await clientRows();
      const bad = await callAccount(system, 'POST', '/account/clients', {
        token: aliceToken,
        json: { name: 'Bad', redirect_uri: 'https://weather.example/callback', post_logout_redirect_uri: uri },
      });
      expect(bad.status, String(uri)).toBe(400);
      expect(bad.body).toMatchObject({ error: 'validation_failed', field: 'post_logout_redirect_uri' });
      expect(await clientRows()).toBe(before);
    }
  });

  const rejected: Array<[string, string]> = [
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['non-loopback http', 'http://client.example/cb'],
    ['a fragment', 'https://client.example/cb#frag'],
    ['a wildcard', 'https://*.client.example/cb'],
    ['userinfo', 'https://user:pass@client.example/cb'],
    ['userinfo without a password', 'https://client.example@evil.example/cb'],
    ['a code query parameter', 'https://client.example/cb?code=abc'],
    ['a state query parameter', 'https://client.example/cb?state=xyz'],
    ['a relative URL', '/cb'],
    ['an empty value', ''],
  ];
  for (const [what, uri] of rejected) {
    it(`RU-09 registration of a redirect URL with ${what} is 400 validation_failed and stores nothing`, async () => {
      const before = await clientRows();
      const res = await callAccount(system, 'POST', '/account/clients', {
        token: aliceToken,
        json: { name: 'Bad', redirect_uri: uri },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.field).toBe('redirect_uri');
      expect(res.body.error_description).toEqual(expect.any(String));
      expect(res.body).not.toHaveProperty('client_secret');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(await clientRows()).toBe(before);
    });
  }

  it('a missing, blank, over-long or non-string field is 400 validation_failed naming the field', async () => {
    const before = await clientRows();
    const cases: Array<[unknown, string]> = [
      [{ redirect_uri: 'https://ok.example/cb' }, 'name'],
      [{ name: '   ', redirect_uri: 'https://ok.example/cb' }, 'name'],
      [{ name: 'x'.repeat(101), redirect_uri: 'https://ok.example/cb' }, 'name'],
      [{ name: 42, redirect_uri: 'https://ok.example/cb' }, 'name'],
      [{ name: 'ok' }, 'redirect_uri'],
      [{ name: 'ok', redirect_uri: ['https://ok.example/cb'] }, 'redirect_uri'],
    ];
    for (const [json, field] of cases) {
      const res = await callAccount(system, 'POST', '/account/clients', { token: aliceToken, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field });
    }
    expect(await clientRows()).toBe(before);
  });
});

describe('GET /account/clients', () => {
  it('lists only the user’s own clients, newest first, without secrets (TS-04)', async () => {
    const first = await callAccount(system, 'POST', '/account/clients', {
      token: bobToken,
      json: { name: 'Bob one', redirect_uri: 'https://bob.example/one' },
    });
    system.clock.advance(1000);
    const second = await callAccount(system, 'POST', '/account/clients', {
      token: bobToken,
      json: { name: 'Bob two', redirect_uri: 'https://bob.example/two' },
    });
    const res = await callAccount(system, 'GET', '/account/clients', { token: bobToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual([second.body.client, first.body.client]);
    expect(res.text).not.toContain(first.body.client_secret);
    expect(res.text).not.toContain(second.body.client_secret);
    expect(res.text).not.toMatch(/lks_/);
    expect(res.text).not.toMatch(/secret/);

    const alices = await callAccount(system, 'GET', '/account/clients', { token: aliceToken });
    expect(alices.body.length).toBeGreaterThan(0);
    expect(alices.body.map((c: { name: string }) => c.name)).not.toContain('Bob one');
    expect(alices.text).not.toMatch(/lks_/);
  });

  it('does not list the portal’s own first-party client', async () => {
    const res = await callAccount(system, 'GET', '/account/clients', { token: aliceToken });
    expect(res.body.map((c: { client_id: string }) => c.client_id)).not.toContain(system.config.portal.clientId);
  });
});

describe('POST /account/clients/:id/revoke', () => {
  it('RV-03 revoking a client kills every AT and RT it issued, for two users, and its outstanding codes', async () => {
    const created = await callAccount(system, 'POST', '/account/clients', {
      token: aliceToken,
      json: { name: 'Doomed', redirect_uri: 'https://doomed.example/cb' },
    });
    const clientId: string = created.body.client.client_id;
    const secret: string = created.body.client_secret;
    const client = (await findClient(system.db, clientId))!;
    const alicePair = await issueThirdPartyTokens(system, client, alice);
    const bobPair = await issueThirdPartyTokens(system, client, bob);
    const outstandingCode = await makeCode(system, client, bob);
    for (const pair of [alicePair, bobPair]) {
      await expect(authenticateAccessToken(system.db, system.clock, pair.accessToken)).resolves.toMatchObject({
        clientId,
      });
    }
    // Control: before the revocation the same exchange path works.
    await expect(exchangeCode(clientId, secret, await makeCode(system, client, alice))).resolves.toHaveProperty(
      'accessToken',
    );

    system.clock.advance(1000);
    const res = await callAccount(system, 'POST', `/account/clients/${clientId}/revoke`, { token: aliceToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      client_id: clientId,
      status: 'revoked',
      revoked_at: new Date(system.clock.now()).toISOString(),
    });
    expect(res.text).not.toContain(secret);

    // Access tokens of both users: refused on the next check (DD-5).
    for (const pair of [alicePair, bobPair]) {
      await expect(authenticateAccessToken(system.db, system.clock, pair.accessToken)).rejects.toBeInstanceOf(
        InvalidToken,
      );
    }
    // Refresh and code exchange both start with client authentication, which now fails (RV-03: 401 invalid_client).
    await expect(authenticateClient(system.db, clientId, secret)).rejects.toBeInstanceOf(InvalidClient);
    await expect(exchangeCode(clientId, secret, outstandingCode)).rejects.toBeInstanceOf(InvalidClient);
    for (const pair of [alicePair, bobPair]) {
      await expect(refreshAs(clientId, secret, pair.refreshToken)).rejects.toBeInstanceOf(InvalidClient);
    }
    // The tokens page no longer shows them as working.
    const list = await callAccount(system, 'GET', '/account/tokens', { token: bobToken });
    expect(
      list.body.filter((t: { name: string; status: string }) => t.name === 'Doomed' && t.status === 'active'),
    ).toEqual([]);
    // The clients list shows it revoked.
    const clients = await callAccount(system, 'GET', '/account/clients', { token: aliceToken });
    expect(clients.body.find((c: { client_id: string }) => c.client_id === clientId)).toMatchObject({
      status: 'revoked',
    });
  });

  it('RV-07 revoking a client twice is a 200 no-op that keeps the first revocation time', async () => {
    const { client } = await makeClient(system, alice, { name: 'Twice' });
    const first = await callAccount(system, 'POST', `/account/clients/${client.id}/revoke`, { token: aliceToken });
    expect(first.status).toBe(200);
    system.clock.advance(5000);
    const second = await callAccount(system, 'POST', `/account/clients/${client.id}/revoke`, { token: aliceToken });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('another user’s client, an unknown id and the portal’s own client are 404 and stay active', async () => {
    const { client } = await makeClient(system, alice, { name: 'Not yours' });
    for (const id of [client.id, 'lkc_doesnotexist', system.config.portal.clientId]) {
      const res = await callAccount(system, 'POST', `/account/clients/${encodeURIComponent(id)}/revoke`, {
        token: bobToken,
      });
      expect(res.status, id).toBe(404);
      expect(res.body.error).toBe('not_found');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await findClient(system.db, client.id))!.revokedAt).toBeNull();
    expect((await findClient(system.db, system.config.portal.clientId))!.revokedAt).toBeNull();
    // The owner still can.
    expect((await callAccount(system, 'GET', '/account/me', { token: aliceToken })).status).toBe(200);
  });
});
