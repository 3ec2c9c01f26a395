import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservedPort } from '#test/support/loopback.ts';
import {
  PortalBrowser,
  startSecondBff,
  usePortalSystem,
  useSignedInBrowser,
  type SecondBff,
} from '#test/support/portal-system.ts';

const system = usePortalSystem();
const { user, browser } = useSignedInBrowser(system, 'Margaret Hamilton');

async function graphqlWith(token: string): Promise<number> {
  const response = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('account proxy: /bff/api/* → the authorization server /account/* (DD-8)', () => {
  it('GET /bff/api/me answers the signed-in user', async () => {
    const answer = await browser.request('/bff/api/me');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: user.id, name: 'Margaret Hamilton', email: user.email });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('API clients: create (secret once), list, revoke; the revoked client stays listed as revoked', async () => {
    const created = await browser.request('/bff/api/clients', {
      json: { name: 'Rocket App', redirect_uri: 'https://rocket.example/callback' },
    });
    expect(created.status).toBe(201);
    expect(created.body.client_secret).toMatch(/^lks_/);
    const client = created.body.client;
    expect(client).toMatchObject({
      name: 'Rocket App',
      redirect_uri: 'https://rocket.example/callback',
      status: 'active',
      revoked_at: null,
    });
    expect(client.client_id).toBe(client.id);
    expect(created.headers.get('cache-control')).toBe('no-store');

    const listed = await browser.request('/bff/api/clients');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: client.id, status: 'active' })]);
    expect(listed.text).not.toContain(created.body.client_secret);

    const revoked = await browser.request(`/bff/api/clients/${client.id}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: client.id, status: 'revoked' });
    const after = await browser.request('/bff/api/clients');
    expect(after.body).toEqual([expect.objectContaining({ id: client.id, status: 'revoked' })]);
  });

  it('CE-13 API clients: GET and PATCH /bff/api/clients/:id reach the account endpoint; PATCH needs X-Latchkey-Portal', async () => {
    const created = await browser.request('/bff/api/clients', {
      json: { name: 'Editable', redirect_uri: 'https://edit.example/callback' },
    });
    const id: string = created.body.client.id;
    const refused = await browser.request(`/bff/api/clients/${id}`, {
      method: 'PATCH',
      json: { name: 'Forged' },
      headers: { 'x-latchkey-portal': undefined },
    });
    expect(refused.status).toBe(403);
    const edited = await browser.request(`/bff/api/clients/${id}`, {
      method: 'PATCH',
      json: { name: 'Edited', redirect_uris: ['https://edit.example/callback', 'http://localhost:5173/cb'] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id,
      name: 'Edited',
      redirect_uris: ['https://edit.example/callback', 'http://localhost:5173/cb'],
    });
    const read = await browser.request(`/bff/api/clients/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(edited.body);
    const wrong = await browser.request(`/bff/api/clients/${id}`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, PATCH');
  });

  it('SR-01 SR-04 SR-05 client secrets: list, generate (with or without a body), delete by /clients/:id/secrets/:secretId/delete; POSTs need X-Latchkey-Portal', async () => {
    const created = await browser.request('/bff/api/clients', {
      json: { name: 'Rolling App', redirect_uri: 'https://rolling.example/callback' },
    });
    const id: string = created.body.client.id;
    const listed = await browser.request(`/bff/api/clients/${id}/secrets`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body).toEqual([expect.objectContaining({ last4: created.body.client_secret.slice(-4) })]);
    const [first] = listed.body;

    const forged = await browser.request(`/bff/api/clients/${id}/secrets`, {
      method: 'POST',
      headers: { 'x-latchkey-portal': undefined },
    });
    expect(forged.status).toBe(403);
    const rotated = await browser.request(`/bff/api/clients/${id}/secrets`, { json: { old_secret_expires_in: '7d' } });
    expect(rotated.status, rotated.text).toBe(201);
    expect(rotated.body.client_secret).toMatch(/^lks_/);
    expect(rotated.body.secrets).toEqual([
      expect.objectContaining({ id: first.id, expires_at: expect.any(String) }),
      rotated.body.secret,
    ]);

    const deletePath = `/bff/api/clients/${id}/secrets/${first.id}/delete`;
    expect(
      (await browser.request(deletePath, { method: 'POST', headers: { 'x-latchkey-portal': undefined } })).status,
    ).toBe(403);
    const deleted = await browser.request(deletePath, { method: 'POST' });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual([rotated.body.secret]);
    // A bodiless POST is forwarded without a body, which the server reads as {}.
    const again = await browser.request(`/bff/api/clients/${id}/secrets`, { method: 'POST' });
    expect(again.status, again.text).toBe(201);
    expect(again.body.secrets).toHaveLength(2);
    const wrong = await browser.request(deletePath);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('API clients: a bad redirect URL comes back as the server said it, 400 validation_failed naming the field', async () => {
    const answer = await browser.request('/bff/api/clients', {
      json: { name: 'Bad', redirect_uri: 'ftp://x.example/cb' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation_failed', field: 'redirect_uri' });
  });

  it('API tokens: generate (value once), it works at /graphql, list shows last 4, revoke stops it at once', async () => {
    const created = await browser.request('/bff/api/tokens', { json: { name: 'CI token', expires_in_days: 30 } });
    expect(created.status).toBe(201);
    const pat: string = created.body.value;
    expect(pat).toMatch(/^lkp_/);
    expect(created.body.token).toMatchObject({ name: 'CI token', kind: 'pat', last4: pat.slice(-4), status: 'active' });
    expect(await graphqlWith(pat)).toBe(200);

    const listed = await browser.request('/bff/api/tokens');
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(expect.objectContaining({ id: created.body.token.id, last4: pat.slice(-4) }));
    expect(listed.text).not.toContain(pat);

    const revoked = await browser.request(`/bff/api/tokens/${created.body.token.id}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.token.id, status: 'revoked' });
    expect(await graphqlWith(pat)).toBe(401);
  });

  it("another user's token id: 404 from the server, passed through", async () => {
    const answer = await browser.request('/bff/api/tokens/tok_doesnotexist00000000/revoke', { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'not_found' });
  });

  it('without a session: 401 {"error":"unauthenticated"} and no upstream call', async () => {
    const calls = system.upstreamCalls.length;
    const anonymous = new PortalBrowser(system);
    for (const [path, init] of [
      ['/bff/api/me', {}],
      ['/bff/api/clients', { json: { name: 'x', redirect_uri: 'https://x.example/cb' } }],
      ['/bff/graphql', { json: { query: '{ profile { name } }' } }],
    ] as const) {
      const answer = await anonymous.request(path, init);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: 'unauthenticated' });
    }
    expect(system.upstreamCalls.length).toBe(calls);
  });
});

describe("GraphQL proxy: POST /bff/graphql → the API with the session's token", () => {
  it("{ profile { name } } answers the signed-in user's name", async () => {
    const answer = await browser.request('/bff/graphql', {
      json: { query: '{ profile { name } }' },
      headers: { accept: 'application/graphql-response+json, application/json' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { profile: { name: 'Margaret Hamilton' } } });
    expect(answer.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it("the API's own errors pass through unchanged (a raw newline in the JSON string: 400)", async () => {
    const answer = await browser.request('/bff/graphql', {
      body: '{"query":"{ profile {\n name } }"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
  });

  it('GET /bff/graphql: 405 Allow: POST', async () => {
    const answer = await browser.request('/bff/graphql');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });

  it('a body above the limit: 413 JSON, never forwarded', async () => {
    const calls = system.upstreamCalls.length;
    const answer = await browser.request('/bff/graphql', {
      body: JSON.stringify({ query: `{ profile { name } } #${'x'.repeat(200 * 1024)}` }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: 'payload_too_large' });
    expect(system.upstreamCalls.length).toBe(calls);
  });
});

/** A raw request, so paths with dot segments reach the server unnormalized. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  body = '{}',
): Promise<{ status: number; body: string }> {
  const url = new URL(system.portalUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('BF-PX-01 fixed upstreams only', () => {
  it.each([
    '/bff/graphql/../admin',
    '/bff/graphql/..%2Fadmin',
    '/bff/graphql/',
    '/bff/graphqlx',
    '/bff/https://evil.example/graphql',
    '/bff//evil.example/graphql',
    '/bff/api/clients/..%2F..%2Fadmin/revoke',
    '/bff/api/clients/%2e%2e/revoke',
    '/bff/api/tokens/a%2Fb/revoke',
    '/bff/api/clients/lkc_x/secrets/..%2F..%2Fme/delete',
    '/bff/api/clients/lkc_x/secrets/%2e%2e/delete',
    '/bff/api/account/me',
    '/bff/api/../../account/me',
  ])('POST %s: 404 JSON (or the fixed route), never another upstream path', async (path) => {
    const before = system.upstreamCalls.length;
    const answer = await rawPost(path, {
      cookie: browser.jar.header()!,
      'content-type': 'application/json',
      'x-latchkey-portal': '1',
    });
    const calls = system.upstreamCalls.slice(before);
    if (path === '/bff/graphql/') {
      // Express treats a trailing slash as the same route: still the one fixed upstream
      // (which answers 400 to a body without a query).
      expect(calls.map((c) => c.url)).toEqual([`${system.apiUrl}/graphql`]);
      expect(answer.status).toBe(400);
    } else {
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'not_found' });
      expect(calls).toEqual([]);
    }
  });
});

/** A stand-in for the API that records what reaches it; used only for the proxy's own mechanics. */
interface StandIn {
  url: string;
  requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  mode: 'answer' | 'hang' | 'unauthorized';
  close(): Promise<void>;
}

async function startStandIn(): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const sockets = new Set<import('node:net').Socket>();
  const standIn: StandIn = {
    url: '',
    requests,
    mode: 'answer',
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (standIn.mode === 'hang') return;
      if (standIn.mode === 'unauthorized') {
        res.writeHead(401, {
          'www-authenticate': 'Bearer realm="api", error="invalid_token"',
          'content-type': 'application/json',
        });
        res.end('{"errors":[{"message":"no"}]}');
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/graphql-response+json; charset=utf-8',
        'set-cookie': 'upstream=1; Path=/',
        'access-control-allow-origin': '*',
        'cache-control': 'public, max-age=600',
        'x-upstream-secret': 'do-not-relay',
        'retry-after': '7',
      });
      res.end('{"data":{"profile":{"name":"stand-in"}}}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

describe('proxy restrictions against a recording upstream (BBA "Proxy Restrictions")', () => {
  let standIn: StandIn;
  let bff: SecondBff;

  beforeAll(async () => {
    standIn = await startStandIn();
    bff = await startSecondBff(system, {
      config: { ...system.config, api: { ...system.config.api, url: standIn.url } },
      upstreamTimeoutMs: 300,
    });
  });
  afterAll(async () => {
    await bff?.close();
    await standIn?.close();
  });

  it("only content-type, accept and the session's bearer token go upstream; only content-type and retry-after come back", async () => {
    standIn.mode = 'answer';
    standIn.requests.length = 0;
    const answer = await browser.request(`${bff.url}/bff/graphql?access_token=x&debug=1`, {
      json: { query: '{ profile { name } }' },
      headers: {
        accept: 'application/graphql-response+json',
        'x-evil': 'forward-me',
        'x-forwarded-for': '10.0.0.1',
        authorization: 'Bearer lkp_attacker_supplied',
        host: 'evil.example',
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { profile: { name: 'stand-in' } } });
    expect(answer.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('x-upstream-secret')).toBeNull();

    expect(standIn.requests).toHaveLength(1);
    const seen = standIn.requests[0]!;
    expect(seen.path).toBe('/graphql');
    expect(seen.body).toBe('{"query":"{ profile { name } }"}');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.accept).toBe('application/graphql-response+json');
    expect(seen.headers.authorization).toMatch(/^Bearer lko_[A-Za-z0-9]+$/);
    expect(seen.headers.host).toBe(new URL(standIn.url).host);
    for (const name of [
      'cookie',
      'origin',
      'x-latchkey-portal',
      'x-evil',
      'x-forwarded-for',
      'sec-fetch-site',
      'referer',
    ]) {
      expect(seen.headers[name]).toBeUndefined();
    }
  });

  it('an upstream that does not answer in time: 504 {"error":"upstream_timeout"}, not 500', async () => {
    standIn.mode = 'hang';
    const started = Date.now();
    const answer = await browser.request(`${bff.url}/bff/graphql`, { json: { query: '{ profile { name } }' } });
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ error: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await browser.request(`${bff.url}/bff/session`)).status).toBe(200);
  });

  it('BF-PX-02 a token still refused after one refresh: the session ends with 401, exactly one refresh, no loop', async () => {
    const victim = new PortalBrowser(system);
    await victim.signIn(user);
    standIn.mode = 'unauthorized';
    standIn.requests.length = 0;
    const refreshes = system.countUpstream('/oauth/token', 'refresh_token');
    const tokenRowsBefore = await system.db.selectFrom('refresh_tokens').select('id').execute();
    const answer = await victim.request(`${bff.url}/bff/graphql`, { json: { query: '{ profile { name } }' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthenticated' });
    expect(answer.headers.getSetCookie().some((c) => c.startsWith('lk_portal_sid=;') && c.includes('Max-Age=0'))).toBe(
      true,
    );
    expect(standIn.requests).toHaveLength(2);
    expect(standIn.requests[0]!.headers.authorization).not.toBe(standIn.requests[1]!.headers.authorization);
    // The second BFF uses the real fetch: count the rotation in the database instead.
    expect((await system.db.selectFrom('refresh_tokens').select('id').execute()).length).toBe(
      tokenRowsBefore.length + 1,
    );
    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes);
    const again = await victim.request(`${bff.url}/bff/graphql`, { json: { query: '{ profile { name } }' } });
    expect(again.status).toBe(401);
    expect(standIn.requests).toHaveLength(2);
  });
});

describe('upstream down', () => {
  it('the API unreachable: 503 {"error":"upstream_unavailable"} with Retry-After; the session survives', async () => {
    // Reserved: the second BFF's own port-0 listener cannot land on it and answer (issue 13).
    const deadUrl = `http://127.0.0.1:${await reservedPort()}`;
    const bff = await startSecondBff(system, {
      config: { ...system.config, api: { ...system.config.api, url: deadUrl } },
    });
    try {
      const answer = await browser.request(`${bff.url}/bff/graphql`, { json: { query: '{ profile { name } }' } });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ error: 'upstream_unavailable' });
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect((await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } })).status).toBe(200);
    } finally {
      await bff.close();
    }
  });

  it('the authorization server unreachable at sign-in start: a 503 page, no transaction stored', async () => {
    const bff = await startSecondBff(system, {
      config: { ...system.config, auth: { ...system.config.auth, url: 'http://127.0.0.1:9' } },
    });
    try {
      const answer = await new PortalBrowser(system).navigate(`${bff.url}/bff/login`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(answer.text).toContain('Sign-in is temporarily unavailable');
    } finally {
      await bff.close();
    }
  });
});

describe('unknown BFF routes', () => {
  it('GET /bff/nothing with Accept: text/html is a JSON 404, never the SPA', async () => {
    const answer = await browser.navigate('/bff/nothing');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'not_found' });
  });

  it('DELETE /bff/api/clients: 405 with Allow', async () => {
    const answer = await browser.request('/bff/api/clients', { method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
