// DD-8 and SC-08 (the `account` scope, which replaced DD-8's "portal token" check) and RFC 6750 §3
// at the account endpoints: who may call them, and the shape of every refusal. The endpoints
// themselves are covered in me/, clients/ and tokens/.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateAccessToken,
  createPersonalAccessToken,
  findClient,
  redeemAuthorizationCode,
  revokeAccessToken,
  type User,
} from '@latchkey/core';
import { makeClient, makePat, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import {
  callAccount,
  issuePortalToken,
  issueThirdPartyTokens,
  lifetimesOf,
  type AccountCall,
} from './account.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';
import { makeScopedCode } from '../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { anOutage } from '#test/support/faults.ts';

let system: TestSystem;
let user: User;
let portalToken: string;
let pat: string;
let thirdPartyToken: string;
let clientId: string;
let patId: string;

interface Endpoint {
  method: string;
  label: string;
  path: () => string;
  json?: unknown;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', label: '/account/me', path: () => '/account/me' },
  { method: 'GET', label: '/account/clients', path: () => '/account/clients' },
  {
    method: 'POST',
    label: '/account/clients',
    path: () => '/account/clients',
    json: { name: 'Sneaky', redirect_uri: 'https://sneaky.example/cb' },
  },
  { method: 'GET', label: '/account/clients/:id', path: () => `/account/clients/${clientId}` },
  {
    method: 'PATCH',
    label: '/account/clients/:id',
    path: () => `/account/clients/${clientId}`,
    json: { name: 'Hijacked', redirect_uris: ['https://attacker.example/cb'] },
  },
  { method: 'POST', label: '/account/clients/:id/revoke', path: () => `/account/clients/${clientId}/revoke` },
  { method: 'GET', label: '/account/tokens', path: () => '/account/tokens' },
  { method: 'POST', label: '/account/tokens', path: () => '/account/tokens', json: { name: 'sneaky' } },
  {
    method: 'PATCH',
    label: '/account/tokens/:id',
    path: () => `/account/tokens/${patId}`,
    json: { name: 'renamed', description: 'changed' },
  },
  { method: 'POST', label: '/account/tokens/:id/revoke', path: () => `/account/tokens/${patId}/revoke` },
  {
    method: 'POST',
    label: '/account/tokens/:id/roll',
    path: () => `/account/tokens/${patId}/roll`,
    json: { overlap: '1h' },
  },
];

/** Everything an account call could change: clients, tokens and grants with their revocation times. */
async function snapshot(): Promise<string> {
  const clients = await system.db
    .selectFrom('clients')
    .select(['id', 'name', 'redirect_uris', 'revoked_at'])
    .orderBy('id')
    .execute();
  const tokens = await system.db
    .selectFrom('access_tokens')
    .select(['id', 'name', 'description', 'expires_at', 'revoked_at', 'replaced_by'])
    .orderBy('id')
    .execute();
  const grants = await system.db.selectFrom('grants').select(['id', 'revoked_at']).orderBy('id').execute();
  return JSON.stringify({ clients, tokens, grants });
}

function call(endpoint: Endpoint, options: { token?: string; headers?: Record<string, string> }): Promise<AccountCall> {
  return callAccount(system, endpoint.method, endpoint.path(), { ...options, json: endpoint.json });
}

/** RFC 6750 §3.1: the challenge of a valid token without the `account` scope (SC-08). */
const INSUFFICIENT_SCOPE = 'Bearer realm="account", error="insufficient_scope", scope="account"';

function expectNoStore(res: AccountCall): void {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system);
  portalToken = await issuePortalToken(system, user);
  pat = await makePat(system, user);
  const { client } = await makeClient(system, user);
  clientId = client.id;
  thirdPartyToken = (await issueThirdPartyTokens(system, client, user)).accessToken;
  const created = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
    userId: user.id,
    name: 'target',
  });
  patId = created.summary.id;
});

afterAll(async () => {
  await system?.close();
});

describe('DD-8 SC-08: only a token with the `account` scope (the portal’s own) is accepted', () => {
  for (const endpoint of ENDPOINTS) {
    const label = `${endpoint.method} ${endpoint.label}`;

    it(`SC-08 ${label}: a personal access token gets 403 insufficient_scope and changes nothing`, async () => {
      const before = await snapshot();
      const res = await call(endpoint, { token: pat });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
      expect(typeof res.body.error_description).toBe('string');
      expect(res.headers.get('www-authenticate')).toBe(INSUFFICIENT_SCOPE);
      expectNoStore(res);
      expect(await snapshot()).toBe(before);
    });

    it(`SC-08 ${label}: a third-party application's access token gets 403 insufficient_scope and changes nothing`, async () => {
      const before = await snapshot();
      const res = await call(endpoint, { token: thirdPartyToken });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toBe(INSUFFICIENT_SCOPE);
      expectNoStore(res);
      expect(await snapshot()).toBe(before);
    });

    it(`${label}: no Authorization header gets 401 with a bare Bearer challenge (RFC 6750 §3)`, async () => {
      const before = await snapshot();
      const res = await call(endpoint, {});
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthenticated');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="account"');
      expectNoStore(res);
      expect(await snapshot()).toBe(before);
    });

    it(`${label}: an unknown token gets 401 invalid_token`, async () => {
      const before = await snapshot();
      const res = await call(endpoint, { token: alterChar(portalToken, -1) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_token');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="account", error="invalid_token"');
      expectNoStore(res);
      expect(await snapshot()).toBe(before);
    });
  }

  it('SC-08 the scope decides, not the kind of token: PATs and third-party tokens hold no `account`, the portal’s does', async () => {
    for (const token of [pat, thirdPartyToken]) {
      expect((await authenticateAccessToken(system.db, system.clock, token)).scopes).not.toContain('account');
    }
    expect((await authenticateAccessToken(system.db, system.clock, portalToken)).scopes).toEqual([
      'profile',
      'email',
      'account',
    ]);
    const listed = await callAccount(system, 'GET', '/account/tokens', { token: portalToken });
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.body)).toBe(true);
  });

  it('SC-08 a token of the portal’s own client without `account` gets 403 insufficient_scope too', async () => {
    const portal = (await findClient(system.db, system.config.portal.clientId))!;
    const code = await makeScopedCode(system, portal, user, ['profile', 'email']);
    const { accessToken } = await redeemAuthorizationCode(system.db, system.clock, lifetimesOf(system), {
      client: portal,
      code,
      redirectUri: portal.redirectUris[0]!,
      codeVerifier: undefined,
    });
    const res = await callAccount(system, 'GET', '/account/tokens', { token: accessToken });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect(res.headers.get('www-authenticate')).toBe(INSUFFICIENT_SCOPE);
  });

  it('a portal token is accepted on every endpoint (P-05: the scheme is case-insensitive)', async () => {
    const res = await callAccount(system, 'GET', '/account/me', {
      headers: { authorization: `bEaReR ${portalToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);
  });

  it('RFC 6750 §3.1: "Bearer" with no token or with two values is 400 invalid_request', async () => {
    for (const header of ['Bearer', 'Bearer ', `Bearer ${portalToken} extra`, `Bearer "${portalToken}"`]) {
      const res = await callAccount(system, 'GET', '/account/me', { headers: { authorization: header } });
      expect(res.status, header).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="account", error="invalid_request"');
      expectNoStore(res);
    }
  });

  it("issue 16: the API's bearer rule: two Authorization headers are 400 invalid_request (Node would keep the first)", async () => {
    const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${system.authUrl}/account/me`,
        {
          method: 'GET',
          // A flat raw-header list keeps both fields on the wire (Host must then be given).
          headers: [
            'host',
            new URL(system.authUrl).host,
            'authorization',
            `Bearer ${portalToken}`,
            'authorization',
            'Bearer lko_other',
          ],
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body)).toMatchObject({
      error: 'invalid_request',
      error_description: 'Send exactly one Authorization header.',
    });
  });

  it('RFC 6750 §3: another scheme (Basic) carries no bearer credentials: 401 with a bare challenge', async () => {
    const res = await callAccount(system, 'GET', '/account/me', {
      headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="account"');
    expectNoStore(res);
  });

  it('a revoked portal token gets 401 invalid_token on the next request (DD-5)', async () => {
    const token = await issuePortalToken(system, user);
    expect((await callAccount(system, 'GET', '/account/me', { token })).status).toBe(200);
    const { tokenId } = await authenticateAccessToken(system.db, system.clock, token);
    await revokeAccessToken(system.db, system.clock, tokenId);
    const res = await callAccount(system, 'GET', '/account/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="account", error="invalid_token"');
  });

  it('the token value never appears in the logs', () => {
    const logs = system.logs.join('\n');
    for (const secret of [portalToken, pat, thirdPartyToken]) expect(logs).not.toContain(secret);
  });
});

describe('request bodies: content type, size limit and malformed JSON', () => {
  async function clientCount(): Promise<number> {
    return (await system.db.selectFrom('clients').select('id').execute()).length;
  }

  it('text/plain (fetch’s default for a string body) gets 415 and stores nothing', async () => {
    const before = await clientCount();
    const res = await callAccount(system, 'POST', '/account/clients', {
      token: portalToken,
      body: JSON.stringify({ name: 'Plain', redirect_uri: 'https://plain.example/cb' }),
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
    expectNoStore(res);
    expect(await clientCount()).toBe(before);
  });

  it('a form-encoded body gets 415 and stores nothing', async () => {
    const before = await clientCount();
    const res = await callAccount(system, 'POST', '/account/tokens', {
      token: portalToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=form',
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
    expect(await clientCount()).toBe(before);
  });

  it('a body over the limit gets 413 and stores nothing', async () => {
    const before = await clientCount();
    const res = await callAccount(system, 'POST', '/account/clients', {
      token: portalToken,
      json: { name: 'Big', redirect_uri: 'https://big.example/cb', padding: 'x'.repeat(20_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
    expectNoStore(res);
    expect(await clientCount()).toBe(before);
  });

  it('malformed JSON, an array, a string and an empty body get 400 invalid_request', async () => {
    const before = await clientCount();
    for (const body of ['{"name":', '[{"name":"a","redirect_uri":"https://a.example/cb"}]', '"text"', 'null']) {
      const res = await callAccount(system, 'POST', '/account/clients', {
        token: portalToken,
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expectNoStore(res);
    }
    const empty = await callAccount(system, 'POST', '/account/clients', { token: portalToken });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('invalid_request');
    expect(await clientCount()).toBe(before);
  });

  it('a non-UTF-8 charset gets 415', async () => {
    const res = await callAccount(system, 'POST', '/account/tokens', {
      token: portalToken,
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
  });

  it('a __proto__ key is ignored like any unknown field', async () => {
    const res = await callAccount(system, 'POST', '/account/tokens', {
      token: portalToken,
      headers: { 'content-type': 'application/json' },
      body: '{"name":"proto","__proto__":{"isAdmin":true},"expires_in_days":7}',
    });
    expect(res.status).toBe(201);
    expect(res.body.token.name).toBe('proto');
    expect(res.body.token).not.toHaveProperty('isAdmin');
  });
});

describe('routing', () => {
  it('an unknown account path is a JSON 404 with no-store', async () => {
    const res = await callAccount(system, 'GET', '/account/nothing-here', { token: portalToken });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
    expectNoStore(res);
  });

  it('a wrong method is 405 with Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/account/me', 'GET, HEAD'],
      ['PUT', '/account/clients', 'GET, HEAD, POST'],
      ['GET', `/account/clients/${clientId}/revoke`, 'POST'],
      ['DELETE', `/account/clients/${clientId}`, 'GET, HEAD, PATCH'],
      ['DELETE', '/account/tokens', 'GET, HEAD, POST'],
      ['GET', `/account/tokens/${patId}/revoke`, 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await callAccount(system, method, path, { token: portalToken });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body.error).toBe('method_not_allowed');
      expectNoStore(res);
    }
  });

  it('a malformed %-escape in an id is 400 invalid_request, never 500/503, and echoes nothing', async () => {
    for (const path of ['/account/clients/%E0%A4%A/revoke', '/account/tokens/%ZZ<marker-xyz>/revoke']) {
      const res = await callAccount(system, 'POST', path, { token: portalToken });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.text).not.toContain('marker-xyz');
      expectNoStore(res);
    }
  });

  it('a cross-origin preflight gets no CORS grant', async () => {
    const res = await callAccount(system, 'OPTIONS', '/account/tokens', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('D-10: a database failure', () => {
  it('is 503 with Retry-After, never 500, never a stack trace', async () => {
    const broken = await startSystem();
    try {
      const owner = await makeUser(broken);
      const token = await issuePortalToken(broken, owner);
      // The database refuses the queries on clients (a renamed table would be a bug: 500, issue 16).
      broken.faults.failQueriesOn('clients', anOutage);
      const res = await callAccount(broken, 'GET', '/account/clients', { token });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body.error).toBe('temporarily_unavailable');
      expect(res.text).not.toMatch(/sqlite|ECONNREFUSED|clients|at .*\.ts/i);
      expectNoStore(res);
      const create = await callAccount(broken, 'POST', '/account/clients', {
        token,
        json: { name: 'x', redirect_uri: 'https://x.example/cb' },
      });
      expect(create.status).toBe(503);
      expect(broken.logs.join('\n')).not.toContain(token);
    } finally {
      await broken.close();
    }
  });
});
