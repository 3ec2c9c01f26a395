// CM-21: authorization requests naming a client by its metadata document's URL are limited per
// client address (RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE), so nobody can make the server fetch
// documents without end. TRUST_PROXY lets the test present addresses through X-Forwarded-For.
import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  CookieJar,
  decodeHtmlEntities,
  fetchPage,
  openAuthorize,
  type AuthorizeRequest,
} from '#test/support/browserless-flow.ts';
import { makeClient, makeUser, pkcePair } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { expectErrorPage } from '../authorize.fixture.ts';
import { documentFor, useDocumentServer } from './metadata-document.fixture.ts';

const LIMIT = 3;
const system = useSystem({
  CIMD_ALLOW_LOOPBACK: 'true',
  RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE: String(LIMIT),
  TRUST_PROXY: 'loopback',
});
const docs = useDocumentServer();

const CALLBACK = 'http://127.0.0.1:53127/callback';

/** GET /oauth/authorize in a fresh browser at address `ip`. */
async function authorizeFrom(ip: string, request: Omit<AuthorizeRequest, 'codeChallenge'>) {
  return fetchPage(system, new CookieJar(), authorizeUrl(system, { ...request, codeChallenge: pkcePair().challenge }), {
    headers: { 'x-forwarded-for': ip },
  });
}

describe('CM-21 authorization requests for metadata documents, per address', () => {
  it('CM-21 past the limit: the 429 page with Retry-After and nothing fetched; registered clients and other addresses go on', async () => {
    const clientId = docs.url('/cm21/client.json');
    // no-store: every request would fetch the document again (CM-10), the most a flood can cost.
    docs.serveJson('/cm21/client.json', documentFor(clientId), { 'cache-control': 'no-store' });
    const attacker = '100.64.21.1';

    for (let i = 1; i <= LIMIT; i += 1) {
      const page = await authorizeFrom(attacker, { clientId, redirectUri: CALLBACK });
      expect(page.status, page.html).not.toBe(429);
      expect(docs.requests('/cm21/client.json')).toBe(i);
    }
    const refused = await authorizeFrom(attacker, { clientId, redirectUri: CALLBACK });
    expectErrorPage(refused, 429);
    expect(decodeHtmlEntities(refused.html)).toContain('Too many sign-in requests');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(docs.requests('/cm21/client.json')).toBe(LIMIT);

    // A registered client from the same address is not counted against it.
    const owner = await makeUser(system, 'Clara Owner');
    const { client } = await makeClient(system, owner, { redirectUri: 'https://client.example/cb' });
    const registered = await authorizeFrom(attacker, { clientId: client.id, redirectUri: 'https://client.example/cb' });
    expect(registered.status, registered.html).not.toBe(429);

    // Another address still reaches the document.
    const neighbour = await authorizeFrom('100.64.21.2', { clientId, redirectUri: CALLBACK });
    expect(neighbour.status, neighbour.html).not.toBe(429);
    expect(docs.requests('/cm21/client.json')).toBe(LIMIT + 1);
  });

  it('CM-21 a cached document counts too; the refusal sets no cookie; each address (the socket’s too) has its own count', async () => {
    const clientId = docs.url('/cm21b/client.json');
    docs.serveJson('/cm21b/client.json', documentFor(clientId));
    const ip = '100.64.21.3';
    // The document is cached after its first fetch, and the requests still count (the limit is
    // decided before anything is read).
    for (let i = 0; i < LIMIT; i += 1) await authorizeFrom(ip, { clientId, redirectUri: CALLBACK });
    expect(docs.requests('/cm21b/client.json')).toBe(1);
    const jar = new CookieJar();
    const refused = await openAuthorize(system, jar, {
      clientId,
      redirectUri: CALLBACK,
      codeChallenge: 'x'.repeat(43),
    });
    // openAuthorize sends no X-Forwarded-For: the socket's address (loopback) is its own key.
    expect(refused.status).not.toBe(429);
    const again = await fetchPage(system, new CookieJar(), refused.url, { headers: { 'x-forwarded-for': ip } });
    expectErrorPage(again, 429);
    expect(again.headers.get('set-cookie')).toBeNull();
  });
});
