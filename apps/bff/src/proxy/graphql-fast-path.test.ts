import type { IncomingMessage } from 'node:http';
import { Agent, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { sign } from 'cookie-signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  sessionIdOf,
  startPortalSystem,
  startSecondBff,
  type PortalResponse,
  type PortalSystem,
} from '#test/support/portal-system.ts';
import { takesFastPath } from './graphql-fast-path.ts';
import { alterChar } from '#test/support/tamper.ts';

// POST /bff/graphql is answered ahead of Express (graphql-fast-path.ts). The same route
// spelled with a trailing slash still goes through Express (graphql-proxy.router.ts), so
// each check here asks both and expects the same answer.
const FAST = '/bff/graphql';
const EXPRESS = '/bff/graphql/';
const QUERY = { query: '{ profile { name } }' };

let system: PortalSystem;
let user: Awaited<ReturnType<typeof makeUser>>;
let browser: PortalBrowser;

beforeAll(async () => {
  system = await startPortalSystem();
  user = await makeUser(system, 'Grace Hopper');
  browser = new PortalBrowser(system);
  await browser.signIn(user);
});
afterAll(() => system?.close());

/** Headers that differ between any two responses (time, per-body validators, the connection). */
const VARYING = new Set([
  'date',
  'etag',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'x-request-id',
]);

function stableHeaders(answer: PortalResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of answer.headers) if (!VARYING.has(name)) headers[name] = value;
  const cookies = answer.headers.getSetCookie().map((line) => line.replace(/Expires=[^;]+/, 'Expires=…'));
  if (cookies.length > 0) headers['set-cookie'] = cookies.join('\n');
  return headers;
}

/** Sends the same request to the fast path and to the Express route; both must answer alike. */
async function bothPaths(init: Parameters<PortalBrowser['request']>[1], who = browser): Promise<PortalResponse> {
  const fast = await who.request(FAST, init);
  const slow = await who.request(EXPRESS, init);
  expect({ status: fast.status, body: fast.body }).toEqual({ status: slow.status, body: slow.body });
  expect(stableHeaders(fast)).toEqual(stableHeaders(slow));
  return fast;
}

function upstreamGraphqlCalls(): number {
  return system.countUpstream('/graphql');
}

describe('which requests take the fast path', () => {
  const req = (method: string, url: string, headers: Record<string, string> = {}) =>
    ({ method, url, headers }) as unknown as IncomingMessage;

  it('exactly POST /bff/graphql, with or without a query string, body not content-encoded', () => {
    expect(takesFastPath(req('POST', '/bff/graphql'))).toBe(true);
    expect(takesFastPath(req('POST', '/bff/graphql?x=1'))).toBe(true);
    expect(takesFastPath(req('POST', '/bff/graphql', { 'content-encoding': 'identity' }))).toBe(false);
    expect(takesFastPath(req('POST', '/bff/graphql', { 'content-encoding': 'gzip' }))).toBe(false);
    for (const url of ['/bff/graphql/', '/bff/graphqlx', '/BFF/GRAPHQL', '/bff/graphql/../admin', '/bff/graphql#x']) {
      expect(takesFastPath(req('POST', url))).toBe(false);
    }
    for (const method of ['GET', 'HEAD', 'PUT', 'OPTIONS'])
      expect(takesFastPath(req(method, '/bff/graphql'))).toBe(false);
  });
});

describe('the fast path answers as the Express route does', () => {
  it('a query with the session: 200, the same body and the same headers (CSP, no-store, no cookie)', async () => {
    const calls = upstreamGraphqlCalls();
    const answer = await bothPaths({ json: QUERY });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(upstreamGraphqlCalls()).toBe(calls + 2);
  });

  it.each([
    ['BF-CS-01 no X-Latchkey-Portal header', { 'x-latchkey-portal': undefined }],
    ['BF-CS-01 X-Latchkey-Portal: yes', { 'x-latchkey-portal': 'yes' }],
    ['BF-CS-02 Origin: https://evil.example', { origin: 'https://evil.example' }],
    ['BF-CS-02 Origin: null', { origin: 'null' }],
    ['BF-CS-02 Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['BF-CS-02 Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['BF-CS-02 Sec-Fetch-Site: none', { 'sec-fetch-site': 'none' }],
  ])('%s: 403 forbidden on both, no upstream call', async (_name, headers) => {
    const calls = system.upstreamCalls.length;
    const answer = await bothPaths({ json: QUERY, headers });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: 'forbidden' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(system.upstreamCalls.length).toBe(calls);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['text/json', 'text/json'],
  ])('BF-CS-04 a body sent as %s: 415 on both, never forwarded', async (_name, type) => {
    const calls = system.upstreamCalls.length;
    const answer = await bothPaths({ body: JSON.stringify(QUERY), headers: { 'content-type': type } });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ error: 'unsupported_media_type' });
    expect(system.upstreamCalls.length).toBe(calls);
  });

  it('application/json with a charset goes through on both', async () => {
    const answer = await bothPaths({
      body: JSON.stringify(QUERY),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(answer.status).toBe(200);
  });

  it('the CSRF checks come before the session: a cross-site request without a session is 403, not 401', async () => {
    const anonymous = new PortalBrowser(system);
    const answer = await bothPaths({ json: QUERY, headers: { origin: 'https://evil.example' } }, anonymous);
    expect(answer.status).toBe(403);
  });

  it('without a session: 401 unauthenticated on both, no cookie set, no upstream call', async () => {
    const calls = system.upstreamCalls.length;
    const answer = await bothPaths({ json: QUERY }, new PortalBrowser(system));
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthenticated' });
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(system.upstreamCalls.length).toBe(calls);
  });

  it('a body above the limit: 413 payload_too_large on both, never forwarded', async () => {
    const calls = system.upstreamCalls.length;
    const answer = await bothPaths({
      body: JSON.stringify({ query: `{ profile { name } } #${'x'.repeat(129 * 1024)}` }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: 'payload_too_large' });
    expect(system.upstreamCalls.length).toBe(calls);
  });
});

/** A POST written by hand: chunked or content-encoded bodies, which fetch does not send as such. */
function rawPost(
  path: string,
  headers: Record<string, string>,
  chunks: Buffer[],
  agent?: Agent,
): Promise<{ status: number; body: string; reusedSocket: boolean }> {
  const url = new URL(system.portalUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: 'POST', path, headers, ...(agent ? { agent } : {}) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, reusedSocket: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

function spaHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    cookie: browser.jar.header()!,
    'content-type': 'application/json',
    'x-latchkey-portal': '1',
    origin: system.portalUrl,
    'sec-fetch-site': 'same-origin',
    ...extra,
  };
}

describe('request bodies on the fast path', () => {
  it('a chunked body (no Content-Length) is forwarded whole', async () => {
    const body = Buffer.from(JSON.stringify(QUERY));
    const answer = await rawPost(FAST, spaHeaders({ 'transfer-encoding': 'chunked' }), [
      body.subarray(0, 10),
      body.subarray(10),
    ]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
  });

  it('a chunked body that grows past the limit: 413, never forwarded; the connection still serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const calls = system.upstreamCalls.length;
      const chunk = Buffer.alloc(32 * 1024, 'x');
      const answer = await rawPost(
        FAST,
        spaHeaders({ 'transfer-encoding': 'chunked' }),
        [
          Buffer.from('{"query":"{ profile { name } }","x":"'),
          ...Array.from({ length: 5 }, () => chunk),
          Buffer.from('"}'),
        ],
        agent,
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'payload_too_large' });
      expect(system.upstreamCalls.length).toBe(calls);
      const next = await rawPost(FAST, spaHeaders(), [Buffer.from(JSON.stringify(QUERY))], agent);
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('a gzip-encoded body is left to the Express route, which inflates it as before', async () => {
    const calls = upstreamGraphqlCalls();
    const answer = await rawPost(FAST, spaHeaders({ 'content-encoding': 'gzip' }), [gzipSync(JSON.stringify(QUERY))]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
    expect(upstreamGraphqlCalls()).toBe(calls + 1);
  });
});

describe('the session cookie is read as express-session reads it', () => {
  async function sessionAndGraphql(cookie: string): Promise<[number, number]> {
    const session = await browser.request('/bff/session', { headers: { cookie } });
    const graphql = await browser.request(FAST, { json: QUERY, headers: { cookie } });
    return [session.status, graphql.status];
  }

  it('BF-CK-01 every spelling of the cookie gets the same answer from express-session and the fast path', async () => {
    const value = browser.sessionCookie()!;
    const decoded = decodeURIComponent(value);
    const id = sessionIdOf(value);
    // Not the last character: in unpadded base64 it carries unused bits.
    const tampered = alterChar(decoded, -2);
    const cases: Array<[string, string, number]> = [
      ['as set', `lk_portal_sid=${value}`, 200],
      ['not URL-encoded', `lk_portal_sid=${decoded}`, 200],
      ['quoted', `lk_portal_sid="${value}"`, 200],
      ['with spaces and other cookies', `a=1;  lk_portal_sid = ${value} ; b=2`, 200],
      ['first of two, then junk', `lk_portal_sid=${value}; lk_portal_sid=junk`, 200],
      ['junk first, then the real one', `lk_portal_sid=junk; lk_portal_sid=${value}`, 401],
      ['signature tampered', `lk_portal_sid=${encodeURIComponent(tampered)}`, 401],
      ['the bare id, unsigned', `lk_portal_sid=${id}`, 401],
      ['s: and the id, no signature', `lk_portal_sid=${encodeURIComponent(`s:${id}`)}`, 401],
      [
        'the id signed with SESSION_SECRET itself (the authorization server’s key)',
        `lk_portal_sid=${encodeURIComponent(`s:${sign(id, system.config.sessionSecret)}`)}`,
        401,
      ],
      ['under another name', `lk_portal_sidx=${value}`, 401],
      ['empty', 'lk_portal_sid=', 401],
    ];
    for (const [name, cookie, expected] of cases) {
      expect([name, await sessionAndGraphql(cookie)]).toEqual([name, [expected, expected]]);
    }
  });
});

describe('no session cache: every request reads the store', () => {
  async function freshBrowser(): Promise<PortalBrowser> {
    const fresh = new PortalBrowser(system);
    await fresh.signIn(user);
    expect((await fresh.request(FAST, { json: QUERY })).status).toBe(200);
    return fresh;
  }

  it('BF-LO-03 after sign-out the old cookie is refused on the very next request, with no upstream call', async () => {
    const fresh = await freshBrowser();
    const cookie = fresh.jar.header()!;
    expect((await fresh.request('/bff/logout', { method: 'POST' })).status).toBe(204);
    const calls = upstreamGraphqlCalls();
    const answer = await fresh.request(FAST, { json: QUERY, headers: { cookie } });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthenticated' });
    expect(upstreamGraphqlCalls()).toBe(calls);
  });

  it('a session deleted from the store (revoked by an operator) is refused on the next request', async () => {
    const fresh = await freshBrowser();
    await system.db
      .deleteFrom('sessions')
      .where('sid', '=', `portal:${sessionIdOf(fresh.sessionCookie()!)}`)
      .execute();
    expect((await fresh.request(FAST, { json: QUERY })).status).toBe(401);
  });

  it('a sign-out through another BFF instance over the same store counts at once on this one', async () => {
    const fresh = await freshBrowser();
    const other = await startSecondBff(system);
    try {
      const cookie = fresh.jar.header()!;
      expect((await fresh.request(`${other.url}/bff/logout`, { method: 'POST' })).status).toBe(204);
      expect((await fresh.request(FAST, { json: QUERY, headers: { cookie } })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('logging on the fast path (RF-04)', () => {
  it('one request line with method, path without the query string, and status', async () => {
    const before = system.logs.length;
    expect((await browser.request(`${FAST}?trace=fast-path-log-check`, { json: QUERY })).status).toBe(200);
    const lines = system.logs.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request', method: 'POST', path: '/bff/graphql', status: 200 }),
    );
    expect(system.logs.slice(before).join('\n')).not.toContain('fast-path-log-check');
  });
});
