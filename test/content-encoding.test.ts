import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeUser } from './support/fixtures.ts';
import { PortalBrowser, startPortalSystem, type PortalSystem } from './support/portal-system.ts';

// Issue 15 §3, HD-02 (docs/hardening.md): a body that is not in its declared Content-Encoding
// is the client's mistake on every surface: 400 in that surface's shape (415 for an encoding
// this server does not read), logged as a client error, never 500; a gzip bomb stays 413.
let system: PortalSystem;
let browser: PortalBrowser;
let app: Awaited<ReturnType<typeof makeClient>>;

beforeAll(async () => {
  system = await startPortalSystem();
  const user = await makeUser(system, 'Radia Perlman');
  app = await makeClient(system, user);
  browser = new PortalBrowser(system);
  expect((await browser.signIn(user)).status).toBe(302);
});
afterAll(() => system?.close());

const FORM = 'application/x-www-form-urlencoded';
const tokenForm = () =>
  new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: 'lkr_x',
    client_id: app.client.id,
    client_secret: app.clientSecret,
  }).toString();
/** 20 MB of zeros, about 20 kB gzipped: far past every body limit once inflated. */
const BOMB = gzipSync(Buffer.alloc(20 * 1024 * 1024));

async function post(url: string, body: Buffer | string, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** No line at error level, and none with a stack, since the request was answered. */
function expectNoErrorLogged(before: number): void {
  const lines = system.logs.slice(before).map((line) => JSON.parse(line) as { level: number | string; err?: unknown });
  expect(lines.filter((line) => line.level === 50 || line.level === 'error')).toEqual([]);
  expect(system.logs.slice(before).join('\n')).not.toMatch(/\bat .+\.ts:\d+/);
}

const WRONG: Array<[string, string]> = [
  ['gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['br', 'br'],
];

describe('HD-02 a body not in its declared Content-Encoding is a 400, never a 500', () => {
  it.each(WRONG)(
    'HD-02 /oauth/token, %s that is not: 400 invalid_request (OAuth JSON), logged as a client error',
    async (_n, encoding) => {
      const before = system.logs.length;
      const answer = await post(`${system.authUrl}/oauth/token`, tokenForm(), {
        'content-type': FORM,
        'content-encoding': encoding,
      });
      expect(answer.status).toBe(400);
      expect(answer.type).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toMatchObject({ error: 'invalid_request' });
      expectNoErrorLogged(before);
    },
  );

  it.each(WRONG)('HD-02 /signin, %s that is not: a 400 page', async (_n, encoding) => {
    const before = system.logs.length;
    const answer = await post(`${system.authUrl}/signin`, 'email=a%40b.c&password=x', {
      'content-type': FORM,
      'content-encoding': encoding,
      accept: 'text/html',
    });
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.text).toContain('could not be read');
    expectNoErrorLogged(before);
  });

  it.each(WRONG)('HD-02 /bff/api/clients, %s that is not: 400 invalid_request (portal JSON)', async (_n, encoding) => {
    const before = system.logs.length;
    const answer = await browser.request('/bff/api/clients', {
      body: JSON.stringify({ name: 'x', redirect_uri: 'https://x.example/cb' }),
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request' });
    expectNoErrorLogged(before);
  });

  it('HD-02 an encoding no server here reads (compress): 415 on each surface', async () => {
    const headers = { 'content-type': FORM, 'content-encoding': 'compress' };
    expect((await post(`${system.authUrl}/oauth/token`, tokenForm(), headers)).status).toBe(415);
    expect((await post(`${system.authUrl}/signin`, 'email=x', { ...headers, accept: 'text/html' })).status).toBe(415);
    const bff = await browser.request('/bff/api/clients', {
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    });
    expect(bff.status).toBe(415);
  });

  it('HD-02 real gzip, deflate and br bodies are still read', async () => {
    const form = tokenForm();
    for (const [encoding, encoded] of [
      ['gzip', gzipSync(form)],
      ['deflate', deflateSync(form)],
      ['br', brotliCompressSync(form)],
    ] as const) {
      const answer = await post(`${system.authUrl}/oauth/token`, encoded, {
        'content-type': FORM,
        'content-encoding': encoding,
      });
      // Read and understood: the refresh token is unknown, which is an OAuth answer, not a parse error.
      expect(JSON.parse(answer.text), encoding).toMatchObject({ error: 'invalid_grant' });
    }
  });

  it('HD-02 a gzip bomb stays 413 on each surface', async () => {
    const headers = { 'content-type': FORM, 'content-encoding': 'gzip' };
    expect((await post(`${system.authUrl}/oauth/token`, BOMB, headers)).status).toBe(413);
    expect((await post(`${system.authUrl}/signin`, BOMB, { ...headers, accept: 'text/html' })).status).toBe(413);
    const bff = await browser.request('/bff/api/clients', {
      body: BOMB as unknown as string,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(bff.status).toBe(413);
  });
});
