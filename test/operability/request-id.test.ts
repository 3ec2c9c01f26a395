// Request ids (issue 4): every request on every server gets one (a valid incoming X-Request-Id
// is kept, anything else replaced), it comes back as X-Request-Id, and the request's log line
// and every error logged while answering it carry it.
import { describe, expect, it } from 'vitest';
import { generateToken, TokenPrefix } from '@latchkey/credentials';
import { makeClient, makePat, makeUser } from '../support/fixtures.ts';
import { PortalBrowser, usePortalSystem } from '../support/portal-system.ts';
import { perFile } from '../support/per-file.ts';
import { captureLogs, SERVER_NAMES, useServersOnEmptyDatabase, type ServerName } from './support/standalone-servers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const system = usePortalSystem();
const { urls } = perFile(async () => ({
  urls: { auth: system.authUrl, api: system.apiUrl, bff: system.portalUrl } as Record<ServerName, string>,
}));

type LogRecord = Record<string, unknown>;

function records(lines: readonly string[]): LogRecord[] {
  return lines.map((line) => JSON.parse(line) as LogRecord);
}

/** The log lines naming `requestId`; the request line is written when the response finishes, so wait for it. */
async function linesOf(lines: readonly string[], requestId: string, msg = 'request'): Promise<LogRecord[]> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const found = records(lines).filter((r) => r.requestId === requestId);
    if (found.some((r) => r.msg === msg) || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A path on each server that answers without a session or token. */
const SOME_PATH: Record<ServerName, string> = {
  auth: '/.well-known/oauth-authorization-server',
  api: '/graphql',
  bff: '/bff/session',
};

describe('X-Request-Id on every server', () => {
  it.each(SERVER_NAMES)('%s: a valid incoming id is kept, echoed, and in the request log line', async (name) => {
    const id = `lb-${name}-7f3a9c:01.trace_id=42/x`;
    const response = await fetch(`${urls[name]}${SOME_PATH[name]}?state=secret-query-value`, {
      headers: { 'x-request-id': id },
    });
    await response.arrayBuffer();
    expect(response.headers.get('x-request-id')).toBe(id);
    const line = (await linesOf(system.logs, id)).find((r) => r.msg === 'request');
    expect(line).toMatchObject({ requestId: id, path: SOME_PATH[name], status: response.status });
    // RF-04 still holds: no query string in the log.
    expect(system.logs.join('\n')).not.toContain('secret-query-value');
  });

  it.each(SERVER_NAMES)('%s: an invalid incoming id is replaced by a fresh one', async (name) => {
    const invalid = ['x'.repeat(129), 'has space', 'quote"d', '<script>', 'a,b', 'tab\there', ''];
    for (const bad of invalid) {
      const response = await fetch(`${urls[name]}/healthz`, { headers: { 'x-request-id': bad } });
      await response.arrayBuffer();
      const echoed = response.headers.get('x-request-id');
      expect(echoed).toMatch(UUID);
      expect(echoed).not.toBe(bad);
    }
    // The longest valid id is kept.
    const longest = 'y'.repeat(128);
    const kept = await fetch(`${urls[name]}/healthz`, { headers: { 'x-request-id': longest } });
    expect(kept.headers.get('x-request-id')).toBe(longest);
  });

  it.each(SERVER_NAMES)('%s: without an incoming id each request gets its own', async (name) => {
    const [a, b] = await Promise.all([fetch(`${urls[name]}/healthz`), fetch(`${urls[name]}/healthz`)]);
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(b.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('the BFF fast path (POST /bff/graphql) and a 404 get an id and a log line too', async () => {
    const browser = new PortalBrowser(system);
    const graphql = await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
    const id = graphql.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect((await linesOf(system.logs, id)).find((r) => r.msg === 'request')).toMatchObject({
      path: '/bff/graphql',
      status: graphql.status,
    });
    const missing = await fetch(`${system.apiUrl}/nothing-here`);
    expect(missing.status).toBe(404);
    const missingId = missing.headers.get('x-request-id')!;
    expect((await linesOf(system.logs, missingId)).find((r) => r.msg === 'request')).toMatchObject({ status: 404 });
  });

  it("OB-19 an API call's line names its route, its user and its token by id, never the token", async () => {
    const user = await makeUser(system);
    const pat = await makePat(system, user);
    const response = await fetch(`${system.apiUrl}/graphql?debug=secret-query-value`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pat}`, 'x-request-id': 'ob19-call' },
      body: JSON.stringify({ query: '{ profile { name } }' }),
    });
    expect(response.status).toBe(200);
    const line = (await linesOf(system.logs, 'ob19-call')).find((r) => r.msg === 'request');
    expect(line).toMatchObject({
      method: 'POST',
      path: '/graphql',
      route: '/graphql',
      status: 200,
      userId: user.id,
      tokenId: expect.stringMatching(/^[a-z]+_/),
    });
    expect(typeof line!.durationMs).toBe('number');
    expect(typeof line!.time).toBe('string');
    const text = system.logs.join('\n');
    expect(text).not.toContain(pat);
    expect(text).not.toContain('secret-query-value');
  });

  it('the token endpoint names the request in its log line, never the code or the secret', async () => {
    const user = await makeUser(system);
    const { client, clientSecret } = await makeClient(system, user);
    const response = await fetch(`${system.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'token-call-1' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'made-up-code-value-0123456789',
        redirect_uri: client.redirectUris[0]!,
        client_id: client.id,
        client_secret: clientSecret,
      }).toString(),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe('token-call-1');
    const lines = await linesOf(system.logs, 'token-call-1');
    expect(lines.find((r) => r.msg === 'request')).toMatchObject({
      path: '/oauth/token',
      route: '/oauth/token',
      status: 400,
    });
    const text = system.logs.join('\n');
    expect(text).not.toContain('made-up-code-value-0123456789');
    expect(text).not.toContain(clientSecret);
  });
});

describe('error logs name the request they belong to', () => {
  const logs = captureLogs();
  const servers = useServersOnEmptyDatabase(system, logs);

  /** Every error-level line logged while answering `id` carries it; returns them. */
  async function errorLinesOf(id: string): Promise<LogRecord[]> {
    const lines = await linesOf(logs.lines, id);
    return lines.filter((r) => typeof r.level === 'number' && r.level >= 50);
  }

  it('auth: a failing token request logs its error with the request id', async () => {
    const response = await fetch(`${servers.auth!.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'auth-fails-1' },
      body: 'grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fx.example%2Fcb&client_id=lkc_x&client_secret=lks_y',
    });
    expect(response.status).toBeGreaterThanOrEqual(500);
    const errors = await errorLinesOf('auth-fails-1');
    expect(errors.length).toBeGreaterThan(0);
    // No error line without an id slipped out for this request.
    const orphans = records(logs.lines).filter((r) => (r.level as number) >= 50 && r.requestId === undefined);
    expect(orphans).toEqual([]);
  });

  it('api: a token check that fails on the database logs its error with the request id', async () => {
    const token = generateToken(TokenPrefix.personalAccessToken);
    const response = await fetch(`${servers.api!.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'api-fails-1' },
      body: '{"query":"{ profile { name } }"}',
    });
    // A database without the schema is a wrongly deployed one: 500, not an outage (issue 16).
    expect(response.status).toBe(500);
    const errors = await errorLinesOf('api-fails-1');
    expect(errors.length).toBeGreaterThan(0);
    expect(logs.lines.join('\n')).not.toContain(token);
  });

  it('bff: a session store failure logs its error with the request id', async () => {
    const browser = new PortalBrowser(system);
    const user = await makeUser(system);
    await browser.signIn(user);
    const response = await fetch(`${servers.bff!.url}/bff/session`, {
      headers: { cookie: `lk_portal_sid=${browser.sessionCookie()!}`, 'x-request-id': 'bff-fails-1' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toBe('bff-fails-1');
    const errors = await errorLinesOf('bff-fails-1');
    expect(errors.length).toBeGreaterThan(0);
  });
});
