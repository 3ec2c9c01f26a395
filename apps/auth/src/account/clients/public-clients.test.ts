// Issue 29: public clients through the account API (PC-01, PC-05). What a public client does at
// /oauth/authorize and /oauth/token is tested with those endpoints.
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateClient, findClient } from '@latchkey/core';
import { makeCode, pkcePair, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { exchangeCode, expectOAuthError } from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

const system = useSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '1000' });
const { alice } = useUsers(system, { alice: 'Alice' });
let token: string;

const NATIVE = 'com.example.app:/callback';

beforeAll(async () => {
  token = await issuePortalToken(system, alice);
});

const register = (json: Record<string, unknown>) => callAccount(system, 'POST', '/account/clients', { token, json });
const edit = (id: string, json: Record<string, unknown>) =>
  callAccount(system, 'PATCH', `/account/clients/${id}`, { token, json });

async function rowCount(): Promise<number> {
  return (await system.db.selectFrom('clients').select('id').execute()).length;
}

describe('PC-01 public clients from the account API', () => {
  it('PC-01 `public: true` registers a client with no secret: the answer has no client_secret, and no secret authenticates it', async () => {
    const res = await register({ name: 'Pocket App', redirect_uri: 'http://127.0.0.1/callback', public: true });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual(['client']);
    expect(res.body.client).toMatchObject({ name: 'Pocket App', public: true, status: 'active' });
    expect(res.text).not.toMatch(/lks_/);
    const id: string = res.body.client.client_id;
    expect((await callAccount(system, 'GET', `/account/clients/${id}`, { token })).body.public).toBe(true);
    expect((await callAccount(system, 'GET', '/account/clients', { token })).body).toContainEqual(
      expect.objectContaining({ id, public: true }),
    );
    // Nothing stored a secret could match, and PKCE is required of it (PC-02).
    expect(await system.db.selectFrom('client_secrets').selectAll().where('client_id', '=', id).execute()).toEqual([]);
    const client = (await findClient(system.db, id))!;
    expect(client.requirePkce).toBe(true);

    // No secret authenticates it, not even a well-formed one, in core or at the token endpoint.
    const secret = 'lks_000000000000000000000000000000000000';
    await expect(authenticateClient(system.db, id, secret, system.clock)).rejects.toMatchObject({
      code: 'invalid_client',
    });
    const { verifier, challenge } = pkcePair();
    const code = await makeCode(system, client, alice, { codeChallenge: challenge });
    await expectOAuthError(
      await exchangeCode(system, { client, clientSecret: secret }, code, { code_verifier: verifier }),
      401,
      'invalid_client',
    );
  });

  it('PC-01 `public: false` or left out is a confidential client with a secret; anything else is 400 naming `public`', async () => {
    for (const json of [{ public: false }, {}]) {
      const res = await register({ name: 'Server App', redirect_uri: 'https://server.example/cb', ...json });
      expect(res.status).toBe(201);
      expect(res.body.client.public).toBe(false);
      expect(res.body.client_secret).toMatch(/^lks_[0-9A-Za-z]{36}$/);
    }
    const before = await rowCount();
    for (const value of ['true', 1, null, 'yes', [true], {}]) {
      const res = await register({ name: 'Odd', redirect_uri: 'https://odd.example/cb', public: value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field: 'public' });
    }
    expect(await rowCount()).toBe(before);
  });

  it('PC-01 a client keeps its kind: `public` sent to PATCH is ignored like any unknown field', async () => {
    const created = await register({ name: 'Stays public', redirect_uri: NATIVE, public: true });
    const res = await edit(created.body.client.id, { name: 'Renamed', public: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', public: true });
    const confidential = await register({ name: 'Stays confidential', redirect_uri: 'https://c.example/cb' });
    expect((await edit(confidential.body.client.id, { public: true })).body.public).toBe(false);
  });
});

describe('PC-05 private-use URI schemes at the account API', () => {
  it('PC-05 a public client may register private-use scheme redirect URLs, at creation and on edit', async () => {
    const res = await register({ name: 'Native', redirect_uris: [NATIVE, 'http://[::1]/cb'], public: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client.redirect_uris).toEqual([NATIVE, 'http://[::1]/cb']);
    const edited = await edit(res.body.client.id, { redirect_uri: 'org.example.notes:/oauth2redirect' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.redirect_uris).toEqual(['org.example.notes:/oauth2redirect']);
  });

  it('PC-05 a confidential client gets 400 naming the field, at creation and on edit, and nothing changes', async () => {
    const before = await rowCount();
    for (const [json, field] of [
      [{ redirect_uri: NATIVE }, 'redirect_uri'],
      [{ redirect_uris: ['https://ok.example/cb', NATIVE] }, 'redirect_uris'],
      [{ redirect_uri: NATIVE, public: false }, 'redirect_uri'],
    ] as const) {
      const res = await register({ name: 'Confidential', ...json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field });
    }
    expect(await rowCount()).toBe(before);
    const created = await register({ name: 'Confidential', redirect_uri: 'https://ok.example/cb' });
    const edited = await edit(created.body.client.id, { redirect_uris: [NATIVE] });
    expect(edited.status).toBe(400);
    expect(edited.body).toMatchObject({ error: 'validation_failed', field: 'redirect_uris' });
    const got = await callAccount(system, 'GET', `/account/clients/${created.body.client.id}`, { token });
    expect(got.body.redirect_uris).toEqual(['https://ok.example/cb']);
  });

  it('PC-05 even a public client is refused a single-word scheme (javascript:, data:) or a scheme without a path', async () => {
    for (const uri of ['javascript:alert(1)', 'data:text/html,x', 'myapp:/callback', 'com.example.app:callback']) {
      const res = await register({ name: 'Bad native', redirect_uri: uri, public: true });
      expect(res.status, uri).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field: 'redirect_uri' });
    }
  });
});
