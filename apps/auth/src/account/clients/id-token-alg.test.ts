// OI-20: a client's ID token algorithm (`id_token_signed_response_alg`) chosen at registration and
// edited from the account API, and what the next ID token of the code flow is signed with. Runs on
// SQLite and, in the node-pg project, on PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { findClient } from '@latchkey/core';
import { useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import type { ClientCredentialsFixture } from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { exchangeCode } from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { expectIdTokenResponse, signInForCode, verifyIdToken } from '../../endpoints/token/id-token.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

const system = useSystem();
const { alice } = useUsers(system, { alice: 'Alice' });
let token: string;

beforeAll(async () => {
  token = await issuePortalToken(system, alice);
});

/** The alg of an ID token whose signature verifies against /.well-known/jwks.json. */
async function verifiedAlg(idToken: string): Promise<string> {
  return (await verifyIdToken(system, idToken)).header.alg;
}

async function register(json: Record<string, unknown>): Promise<ClientCredentialsFixture> {
  const res = await callAccount(system, 'POST', '/account/clients', { token, json });
  expect(res.status, res.text).toBe(201);
  const client = await findClient(system.db, res.body.client.client_id);
  return { client: client!, clientSecret: res.body.client_secret };
}

function edit(id: string, json: unknown) {
  return callAccount(system, 'PATCH', `/account/clients/${encodeURIComponent(id)}`, { token, json });
}

async function getClient(id: string) {
  const res = await callAccount(system, 'GET', `/account/clients/${encodeURIComponent(id)}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/** The algorithm of the next ID token the code flow gives `creds` (scope openid). */
async function nextIdTokenAlg(creds: ClientCredentialsFixture): Promise<string> {
  const { code } = await signInForCode(system, alice, creds, { scope: 'openid' });
  const body = await expectIdTokenResponse(await exchangeCode(system, creds, code));
  return verifiedAlg(body.id_token);
}

describe('OI-20 id_token_signed_response_alg from the account API', () => {
  it('OI-20 RS256 when left out; the client JSON presents it', async () => {
    const res = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name: 'Default alg', redirect_uri: 'https://default-alg.example/cb' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client.id_token_signed_response_alg).toBe('RS256');
    const creds = {
      client: (await findClient(system.db, res.body.client.client_id))!,
      clientSecret: res.body.client_secret,
    };
    expect(await nextIdTokenAlg(creds)).toBe('RS256');
  });

  it('OI-20 created with ES256, its id_token is ES256 and verifies against /.well-known/jwks.json; a PATCH to RS256 changes the next one', async () => {
    const creds = await register({
      name: 'Elliptic',
      redirect_uri: 'https://elliptic.example/cb',
      id_token_signed_response_alg: 'ES256',
    });
    expect((await getClient(creds.client.id)).id_token_signed_response_alg).toBe('ES256');
    expect(await nextIdTokenAlg(creds)).toBe('ES256');

    const patched = await edit(creds.client.id, { id_token_signed_response_alg: 'RS256' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.id_token_signed_response_alg).toBe('RS256');
    expect(await nextIdTokenAlg(creds)).toBe('RS256');

    const back = await edit(creds.client.id, { id_token_signed_response_alg: 'ES256' });
    expect(back.body.id_token_signed_response_alg).toBe('ES256');
    expect(await nextIdTokenAlg(creds)).toBe('ES256');
  });

  it('OI-20 any other value (HS256, none, 42, es256, null) is 400 validation_failed naming the field, and nothing changes', async () => {
    const creds = await register({ name: 'Steady', redirect_uri: 'https://steady.example/cb' });
    const before = await getClient(creds.client.id);
    const clientsBefore = (await callAccount(system, 'GET', '/account/clients', { token })).body.length;
    for (const bad of ['HS256', 'none', 42, 'es256', null, ['ES256']]) {
      const edited = await edit(creds.client.id, { name: 'Changed', id_token_signed_response_alg: bad });
      expect(edited.status, `PATCH ${JSON.stringify(bad)}`).toBe(400);
      expect(edited.body).toMatchObject({
        error: 'validation_failed',
        field: 'id_token_signed_response_alg',
        error_description: expect.stringContaining('RS256 or ES256'),
      });
      const created = await callAccount(system, 'POST', '/account/clients', {
        token,
        json: { name: 'Never', redirect_uri: 'https://never.example/cb', id_token_signed_response_alg: bad },
      });
      expect(created.status, `POST ${JSON.stringify(bad)}`).toBe(400);
      expect(created.body).toMatchObject({ error: 'validation_failed', field: 'id_token_signed_response_alg' });
    }
    expect(await getClient(creds.client.id)).toEqual(before);
    expect((await callAccount(system, 'GET', '/account/clients', { token })).body).toHaveLength(clientsBefore);
    expect(await nextIdTokenAlg(creds)).toBe('RS256');
  });
});
