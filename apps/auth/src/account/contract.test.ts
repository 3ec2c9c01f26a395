import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ROUTES, errorJson } from '@latchkey/contracts';
import { makeClient, makePat, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken, issueThirdPartyTokens } from './account.fixture.ts';

// Issue 16: the account API is written once, in packages/contracts. Every route of the table
// answers exactly what its schema says: parsing strips unknown fields, so an answer equal to
// its parse carries nothing undeclared (a secret added to a presenter would fail here).
let system: TestSystem;
let token: string;
let ids: Record<'clients' | 'secrets' | 'tokens' | 'applications' | 'secretId', string>;

beforeAll(async () => {
  system = await startSystem();
  const user = await makeUser(system, 'Connie Contract');
  token = await issuePortalToken(system, user);
  const { client } = await makeClient(system, user);
  // Another client for its secrets: the first is revoked by its route before theirs are called.
  const { client: rotating } = await makeClient(system, user, { name: 'Rotating' });
  const secrets = await callAccount(system, 'GET', `/account/clients/${rotating.id}/secrets`, { token });
  await makePat(system, user, 'to revoke');
  const tokens = await callAccount(system, 'GET', '/account/tokens', { token });
  // An application of another developer, authorized by this user: listed, then revoked.
  const { client: thirdParty } = await makeClient(system, await makeUser(system, 'Dev Eloper'));
  await issueThirdPartyTokens(system, thirdParty, user);
  ids = {
    clients: client.id,
    secrets: rotating.id,
    secretId: (secrets.body as Array<{ id: string }>)[0]!.id,
    tokens: (tokens.body as Array<{ id: string; kind: string }>).find((t) => t.kind === 'pat')!.id,
    applications: thirdParty.id,
  };
});
afterAll(async () => {
  await system?.close();
});

const BODIES: Record<string, unknown> = {
  '/clients': { name: 'Contract App', redirect_uri: 'https://contract.example/cb' },
  '/tokens': { name: 'contract token', expires_in_days: 30 },
  '/tokens/:id': { description: 'Edited by the contract test' },
  '/clients/:id': { description: 'Edited by the contract test', client_uri: 'https://contract.example/' },
  '/clients/:id/secrets': { old_secret_expires_in: '1d' },
};

describe('issue 16: the account contract', () => {
  for (const route of ACCOUNT_ROUTES) {
    for (const [method, schema] of Object.entries(route.answers)) {
      it(`${method} /account${route.path} answers its schema and nothing more`, async () => {
        const kind = route.path.startsWith('/clients/:id/secrets')
          ? 'secrets'
          : route.path.startsWith('/clients')
            ? 'clients'
            : route.path.startsWith('/tokens')
              ? 'tokens'
              : 'applications';
        const path = `/account${route.path.replace(':id', ids[kind]).replace(':secretId', ids.secretId)}`;
        const answer = await callAccount(system, method, path, {
          token,
          ...(method !== 'GET' && BODIES[route.path] !== undefined && { json: BODIES[route.path] }),
        });
        const creates = method === 'POST' && !route.path.endsWith('/revoke') && !route.path.endsWith('/delete');
        expect(answer.status, answer.text).toBe(creates ? 201 : 200);
        expect(schema.parse(answer.body)).toEqual(answer.body);
        if (Array.isArray(answer.body)) expect(answer.body.length).toBeGreaterThan(0);
      });
    }
  }

  it('a refusal answers the error schema with the field at fault', async () => {
    const answer = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name: '', redirect_uri: 'x' },
    });
    expect(answer.status).toBe(400);
    expect(errorJson.parse(answer.body)).toEqual(answer.body);
    expect(answer.body.field).toBeDefined();
  });
});
