// Issue 32: client ID metadata documents at /oauth/authorize, against a real document server on
// loopback (CIMD_ALLOW_LOOPBACK=true, as in development): a document signs a user in and its
// token works at the API; each bad document, URL or answer is refused with the error page and
// no redirect; the cache is honoured. The production setting (no loopback) is in
// metadata-document-production.test.ts, documents turned off in metadata-document-off.test.ts.
import { createServer } from 'node:http';
import { blockClientHost, unblockClientHost } from '@latchkey/core';
import { describe, expect, it } from 'vitest';
import { authorizeViaPages, CookieJar, openAuthorize, type AuthorizeRequest } from '#test/support/browserless-flow.ts';
import { makeUser, pkcePair } from '#test/support/fixtures.ts';
import { closeServer, listenOnLoopback } from '#test/support/loopback.ts';
import { useSystem } from '#test/support/system.ts';
import {
  expectOAuthError,
  expectTokenResponse,
  postForm,
  revokeUrl,
  tokenUrl,
} from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { countCodes, expectErrorRedirect } from '../authorize.fixture.ts';
import { MAX_CACHE_SECONDS } from './cache-lifetime.ts';
import { FETCH_TIMEOUT_MS } from './fetch-metadata-document.ts';
import {
  documentClientRow,
  documentFor,
  DOC_REDIRECT_URI,
  expectDocumentRefused,
  useDocumentServer,
} from './metadata-document.fixture.ts';

// Every test here comes from one address in well under a minute; the limit per address is
// CM-21's own test (metadata-document-rate-limit.test.ts).
const system = useSystem({ CIMD_ALLOW_LOOPBACK: 'true', RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE: '10000' });
const docs = useDocumentServer();

/** A redirect URL the documents' loopback one matches (any port: PC-06). */
const CALLBACK = 'http://127.0.0.1:53127/callback';

function request(clientId: string, extra: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return { clientId, redirectUri: CALLBACK, codeChallenge: pkcePair().challenge, ...extra };
}

/** GET /oauth/authorize for the document at `path`, in a fresh browser. */
async function open(clientId: string, extra: Partial<AuthorizeRequest> = {}) {
  return openAuthorize(system, new CookieJar(), request(clientId, extra));
}

async function profileName(accessToken: string): Promise<string | undefined> {
  const response = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  if (response.status !== 200) return undefined;
  return ((await response.json()) as { data?: { profile: { name: string } } }).data?.profile.name;
}

describe('CM-03 a client ID metadata document signs a user in', () => {
  it('CM-03 first use fetches the document, stores its client under the URL, and the code, token, refresh and revocation work', async () => {
    const clientId = docs.url('/cm03/client.json');
    docs.serveJson('/cm03/client.json', documentFor(clientId, { client_uri: 'http://127.0.0.1/home' }));
    const user = await makeUser(system, 'Grace Hopper');
    const { verifier, challenge } = pkcePair();
    const response = await authorizeViaPages(system, {
      clientId,
      redirectUri: CALLBACK,
      codeChallenge: challenge,
      state: 'cm03',
      user,
    });
    expect(response.location.startsWith(`${CALLBACK}?`)).toBe(true);
    expect(response.state).toBe('cm03');
    expect(response.code).toBeDefined();
    expect(docs.requests('/cm03/client.json')).toBe(1);

    // CM-07: a public client with PKCE required, no owner, third-party scopes, registered by its document.
    const row = await documentClientRow(system, clientId);
    expect(row).toMatchObject({
      id: clientId,
      registration: 'metadata_document',
      owner_id: null,
      name: 'Doc App',
      redirect_uris: JSON.stringify([DOC_REDIRECT_URI]),
      client_uri: 'http://127.0.0.1/home',
      revoked_at: null,
    });
    expect(Number(row!.public)).toBe(1);
    expect(Number(row!.require_pkce)).toBe(1);
    expect(Number(row!.first_party)).toBe(0);

    // The token endpoint finds the stored row as for any public client (PC-03): no fetch there.
    const tokens = await expectTokenResponse(
      await postForm(tokenUrl(system), {
        grant_type: 'authorization_code',
        code: response.code!,
        code_verifier: verifier,
        redirect_uri: CALLBACK,
        client_id: clientId,
      }),
    );
    expect(await profileName(tokens.access_token)).toBe('Grace Hopper');
    const refreshed = await expectTokenResponse(
      await postForm(tokenUrl(system), {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      }),
    );
    expect(await profileName(refreshed.access_token)).toBe('Grace Hopper');
    const revoked = await postForm(revokeUrl(system), { token: refreshed.access_token, client_id: clientId });
    expect(revoked.status).toBe(200);
    expect(await profileName(refreshed.access_token)).toBeUndefined();
    expect(docs.requests('/cm03/client.json')).toBe(1);
  });

  it('CM-03 another client’s id is still refused at the token endpoint (a document client is no wildcard)', async () => {
    const clientId = docs.url('/cm03/unknown.json');
    await expectOAuthError(
      await postForm(tokenUrl(system), {
        grant_type: 'refresh_token',
        refresh_token: 'lkr_000000000000000000000000000000000000',
        client_id: clientId,
      }),
      401,
      'invalid_client',
    );
    expect(docs.requests('/cm03/unknown.json')).toBe(0);
  });
});

describe('CM-07 a document’s client is public: PKCE, and only the document’s redirect URLs', () => {
  it('CM-07 a redirect_uri not in the document: the 400 page, no Location, no code', async () => {
    const clientId = docs.url('/cm07/client.json');
    docs.serveJson('/cm07/client.json', documentFor(clientId));
    const before = await countCodes(system);
    for (const redirectUri of [
      'https://evil.example/callback',
      'http://127.0.0.1:53127/other',
      'http://localhost/callback',
    ]) {
      const page = await open(clientId, { redirectUri });
      expect(page.step).toBe('error');
      expect(page.location).toBeUndefined();
      expect(page.html).toContain('redirect_uri');
    }
    expect(await countCodes(system)).toBe(before);
  });

  it('CM-07 without code_challenge: invalid_request at the document’s redirect URL (PC-02)', async () => {
    const clientId = docs.url('/cm07/pkce.json');
    docs.serveJson('/cm07/pkce.json', documentFor(clientId));
    const page = await open(clientId, { codeChallenge: undefined, state: 'p' });
    expectErrorRedirect(system, page, CALLBACK, 'invalid_request', 'p');
  });
});

describe('CM-04, CM-05, CM-06 what the document says is checked before anything is stored', () => {
  const cases: Array<[string, (url: string) => unknown, RegExp, string]> = [
    [
      'CM-04 client_id differs from the URL',
      (url) => documentFor(`${url}x`),
      /client_id in the application's metadata document is not the URL/,
      'client_id_mismatch',
    ],
    [
      'CM-05 token_endpoint_auth_method private_key_jwt',
      (url) => documentFor(url, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://a.example/j' }),
      /token_endpoint_auth_method other than none/,
      'token_endpoint_auth_method',
    ],
    [
      'CM-05 no redirect_uris',
      (url) => ({ client_id: url, client_name: 'No Redirects' }),
      /must list its redirect_uris/,
      'invalid_document',
    ],
    [
      'CM-06 a redirect URL that is not one (javascript:)',
      (url) => documentFor(url, { redirect_uris: ['javascript:alert(1)'] }),
      /invalid redirect_uris/,
      'invalid_document',
    ],
    [
      'CM-06 more than 10 redirect URLs',
      (url) => documentFor(url, { redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1/cb${i}`) }),
      /invalid redirect_uris/,
      'invalid_document',
    ],
    [
      'CM-06 client_name reads as the service’s own name',
      (url) => documentFor(url, { client_name: 'Latchkey' }),
      /invalid client_name/,
      'invalid_document',
    ],
    [
      'CM-06 client_name with a right-to-left override',
      (url) => documentFor(url, { client_name: 'Evil \u202eppA' }),
      /invalid client_name/,
      'invalid_document',
    ],
    [
      'CM-06 client_uri javascript:',
      (url) => documentFor(url, { client_uri: 'javascript:alert(1)' }),
      /invalid client_uri/,
      'invalid_document',
    ],
    [
      'CM-06 logo_uri with credentials',
      (url) => documentFor(url, { logo_uri: 'https://u:p@cdn.example/logo.png' }),
      /invalid logo_uri/,
      'invalid_document',
    ],
  ];
  cases.forEach(([name, body, message, reason], index) => {
    it(`${name}: the 400 page, no redirect, nothing stored`, async () => {
      const path = `/cm04-06/${index}.json`;
      const clientId = docs.url(path);
      docs.serveJson(path, body(clientId));
      const before = await countCodes(system);
      expectDocumentRefused(system, await open(clientId), message, reason, '127.0.0.1');
      expect(await documentClientRow(system, clientId)).toBeUndefined();
      expect(await countCodes(system)).toBe(before);
    });
  });

  it('CM-06 no client_name: the client is named after the document’s host', async () => {
    const clientId = docs.url('/cm06/nameless.json');
    docs.serveJson('/cm06/nameless.json', { client_id: clientId, redirect_uris: [DOC_REDIRECT_URI] });
    expect((await open(clientId)).step).toBe('signin');
    expect((await documentClientRow(system, clientId))?.name).toBe('127.0.0.1');
  });
});

describe('CM-09 the fetch: no redirects, 5 s, 64 KB, JSON', () => {
  it('CM-09 a 3xx is refused; its target is never fetched', async () => {
    const clientId = docs.url('/cm09/moved.json');
    const target = docs.url('/cm09/target.json');
    docs.serveJson('/cm09/target.json', documentFor(clientId));
    docs.serve('/cm09/moved.json', (_req, res) => void res.writeHead(302, { location: target }).end());
    expectDocumentRefused(system, await open(clientId), /follows no redirects/, 'redirect', '127.0.0.1');
    expect(docs.requests('/cm09/target.json')).toBe(0);
  });

  it('CM-09 more than 64 KB, declared by Content-Length: refused', async () => {
    const clientId = docs.url('/cm09/large.json');
    docs.serveJson('/cm09/large.json', documentFor(clientId, { padding: 'x'.repeat(64 * 1024) }));
    expectDocumentRefused(system, await open(clientId), /larger than 64 KB/, 'too_large', '127.0.0.1');
  });

  it('CM-09 more than 64 KB streamed without a length: cut while streaming, refused', async () => {
    const clientId = docs.url('/cm09/stream.json');
    let written = 0;
    docs.serve('/cm09/stream.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"client_id":${JSON.stringify(clientId)},"padding":"`);
      const chunk = 'x'.repeat(16 * 1024);
      const timer = setInterval(() => {
        if (res.destroyed || written > 10 * 1024 * 1024) {
          clearInterval(timer);
          res.end();
          return;
        }
        written += chunk.length;
        res.write(chunk);
      }, 5);
    });
    expectDocumentRefused(system, await open(clientId), /larger than 64 KB/, 'too_large', '127.0.0.1');
    // The server was cut off long before it could send its 10 MB.
    expect(written).toBeLessThan(1024 * 1024);
  });

  it('CM-09 a server that never answers: refused after 5 s', async () => {
    const clientId = docs.url('/cm09/slow.json');
    docs.serve('/cm09/slow.json', () => undefined);
    const started = Date.now();
    const page = await open(clientId);
    const elapsed = Date.now() - started;
    expectDocumentRefused(system, page, /did not arrive within 5 seconds/, 'timeout', '127.0.0.1');
    expect(elapsed).toBeGreaterThanOrEqual(FETCH_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(FETCH_TIMEOUT_MS + 3000);
  });

  it('CM-09 a body that is not JSON, or not labelled JSON: refused', async () => {
    const html = docs.url('/cm09/html.json');
    docs.serve('/cm09/html.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(JSON.stringify(documentFor(html)));
    });
    expectDocumentRefused(system, await open(html), /is not JSON/, 'not_json', '127.0.0.1');
    const broken = docs.url('/cm09/broken.json');
    docs.serve('/cm09/broken.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"client_id": ');
    });
    expectDocumentRefused(system, await open(broken), /not valid JSON/, 'not_json', '127.0.0.1');
  });

  it('CM-09 a 404: refused', async () => {
    const clientId = docs.url('/cm09/missing.json');
    expectDocumentRefused(system, await open(clientId), /did not answer 200 OK/, 'http_status', '127.0.0.1');
  });
});

describe('CM-12 every failure is a page, never a 500', () => {
  it('CM-12 nothing listening on the port: refused', async () => {
    const server = createServer();
    const port = await listenOnLoopback(server);
    await closeServer(server);
    const clientId = `http://127.0.0.1:${port}/cm12/client.json`;
    expectDocumentRefused(system, await open(clientId), /could not be fetched/, 'unreachable', '127.0.0.1');
  });

  it('CM-12 https to a server that speaks http (TLS fails): refused', async () => {
    const clientId = `https://127.0.0.1:${docs.port}/cm12/tls.json`;
    expectDocumentRefused(system, await open(clientId), /could not be fetched/, 'unreachable', '127.0.0.1');
  });
});

describe('CM-02 URLs a document may not have, refused before any request', () => {
  it.each([
    ['credentials', (port: number) => `http://user:secret@127.0.0.1:${port}/cm02/client.json`, /user name or password/],
    ['a fragment', (port: number) => `http://127.0.0.1:${port}/cm02/client.json#x`, /fragment/],
    ['no path', (port: number) => `http://127.0.0.1:${port}/`, /must have a path/],
    ['dot segments', (port: number) => `http://127.0.0.1:${port}/a/../cm02/client.json`, /normal form/],
    [
      'http on a host that is not loopback',
      () => 'http://app.example/cm02/client.json',
      /must use https/,
      'app.example',
    ],
  ])('CM-02 %s: the 400 page, nothing fetched', async (_name, makeUrl, message, host = '127.0.0.1') => {
    const before = docs.requests();
    expectDocumentRefused(system, await open(makeUrl(docs.port)), message, 'invalid_url', host);
    expect(docs.requests()).toBe(before);
  });

  it('CM-01 a URL over 1024 characters: refused; a short non-URL id is looked up as before', async () => {
    const long = docs.url(`/cm01/${'a'.repeat(1024)}.json`);
    expectDocumentRefused(system, await open(long), /longer than 1024/, 'invalid_url', '127.0.0.1');
    const unknown = await open('lkc_000000000000000000000000');
    expect(unknown.step).toBe('error');
    expect(unknown.html).toContain('unknown or no longer active');
  });
});

describe('CM-10 the document is cached as its headers say, at most 24 hours', () => {
  it('CM-10 max-age=600: not fetched again within 600 s; fetched again after, and a changed document counts', async () => {
    const path = '/cm10/max-age.json';
    const clientId = docs.url(path);
    docs.serveJson(path, documentFor(clientId), { 'cache-control': 'max-age=600' });
    expect((await open(clientId)).step).toBe('signin');
    expect((await open(clientId)).step).toBe('signin');
    system.clock.advance(599_000);
    expect((await open(clientId)).step).toBe('signin');
    expect(docs.requests(path)).toBe(1);

    // The app moves its callback; the stored document still holds until it expires.
    const moved = 'http://127.0.0.1/moved';
    docs.serveJson(path, documentFor(clientId, { redirect_uris: [moved] }), { 'cache-control': 'max-age=600' });
    expect((await open(clientId, { redirectUri: moved })).step).toBe('error');
    system.clock.advance(2_000);
    expect((await open(clientId, { redirectUri: moved })).step).toBe('signin');
    expect(docs.requests(path)).toBe(2);
    expect((await open(clientId)).step).toBe('error');
  });

  it('CM-10 no-store: fetched again on every authorization request', async () => {
    const path = '/cm10/no-store.json';
    const clientId = docs.url(path);
    docs.serveJson(path, documentFor(clientId), { 'cache-control': 'no-store' });
    for (let i = 1; i <= 3; i += 1) {
      expect((await open(clientId)).step).toBe('signin');
      expect(docs.requests(path)).toBe(i);
    }
  });

  it('CM-10 a year’s max-age is held to 24 hours', async () => {
    const path = '/cm10/year.json';
    const clientId = docs.url(path);
    docs.serveJson(path, documentFor(clientId), { 'cache-control': 'max-age=31536000' });
    const now = system.clock.now();
    expect((await open(clientId)).step).toBe('signin');
    expect(Number((await documentClientRow(system, clientId))?.metadata_expires_at)).toBe(
      now + MAX_CACHE_SECONDS * 1000,
    );
    system.clock.advance(MAX_CACHE_SECONDS * 1000);
    expect((await open(clientId)).step).toBe('signin');
    expect(docs.requests(path)).toBe(2);
  });

  it('CM-10 an expired document whose refetch fails is refused, not used stale', async () => {
    const path = '/cm10/gone.json';
    const clientId = docs.url(path);
    docs.serveJson(path, documentFor(clientId), { 'cache-control': 'max-age=60' });
    expect((await open(clientId)).step).toBe('signin');
    docs.serve(path, (_req, res) => void res.writeHead(500).end());
    system.clock.advance(61_000);
    expectDocumentRefused(system, await open(clientId), /did not answer 200 OK/, 'http_status', '127.0.0.1');
  });
});

describe('CM-13 a blocked host, and a revoked document client, stay refused', () => {
  it('CM-13 block the host: its signed-in client is refused without a fetch, and unblocking does not revive it', async () => {
    const path = '/cm13/client.json';
    const clientId = `http://localhost:${docs.port}${path}`;
    docs.serveJson(path, documentFor(clientId), { 'cache-control': 'no-store' });
    expect((await open(clientId)).step).toBe('signin');
    expect(docs.requests(path)).toBe(1);

    const { revokedClients } = await blockClientHost(system.db, system.clock, 'localhost');
    expect(revokedClients).toEqual([clientId]);
    expectDocumentRefused(system, await open(clientId), /blocked on this Latchkey server/, 'blocked_host', 'localhost');
    const other = `http://localhost:${docs.port}/cm13/other.json`;
    expectDocumentRefused(system, await open(other), /blocked on this Latchkey server/, 'blocked_host', 'localhost');
    expect(docs.requests(path)).toBe(1);
    expect(docs.requests('/cm13/other.json')).toBe(0);

    await unblockClientHost(system.db, 'localhost');
    expectDocumentRefused(system, await open(clientId), /unknown or no longer active/, 'revoked', 'localhost');
    expect((await documentClientRow(system, clientId))?.revoked_at).not.toBeNull();
    expect(docs.requests(path)).toBe(1);
  });
});

describe('CM-11 the metadata says documents are supported', () => {
  it('CM-11 client_id_metadata_document_supported: true', async () => {
    const metadata = (await (await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });
});
