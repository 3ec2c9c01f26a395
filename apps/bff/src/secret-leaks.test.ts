import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '@latchkey/credentials';
import { makeUser } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  readSessionTokens,
  startPortalSystem,
  type PortalSystem,
} from '#test/support/portal-system.ts';

// One full portal session, recorded response by response: sign-in, every account operation,
// the Explorer's query, a refresh, failures and sign-out. Then the transcript, the logs and
// the sessions table are searched for the secrets that must never be there.
let system: PortalSystem;
let browser: PortalBrowser;
const sessionTokens: string[] = [];
let clientSecret = '';
let pat = '';
const codes: string[] = [];
const states: string[] = [];

/** Any access or refresh token (DD-3 format: prefix, 30 random, 6 checksum). */
const SESSION_TOKEN = /lk[or]_[A-Za-z0-9]{36}/;
const ANY_SECRET = /lk[oprs]_[A-Za-z0-9]{36}/;

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

beforeAll(async () => {
  system = await startPortalSystem();
  const user = await makeUser(system, 'Ada Lovelace');
  browser = new PortalBrowser(system);

  // Sign-in, with the code and state noted from the authorization response.
  const start = await browser.startSignIn('/clients');
  const callback = new URL(await browser.authorize(start.location!, user));
  codes.push(callback.searchParams.get('code')!);
  states.push(callback.searchParams.get('state')!);
  await browser.navigate(`${callback.pathname}${callback.search}`);
  const first = (await readSessionTokens(system, browser))!;
  sessionTokens.push(first.accessToken, first.refreshToken);

  await browser.request('/bff/session');
  await browser.request('/bff/api/me');
  const client = await browser.request('/bff/api/clients', {
    json: { name: 'Leak check', redirect_uri: 'https://leak.example/cb' },
  });
  clientSecret = client.body.client_secret;
  await browser.request('/bff/api/clients');
  await browser.request(`/bff/api/clients/${client.body.client.id}/revoke`, { method: 'POST' });
  const token = await browser.request('/bff/api/tokens', { json: { name: 'Leak check' } });
  pat = token.body.value;
  await browser.request('/bff/api/tokens');
  await browser.request(`/bff/api/tokens/${token.body.token.id}/revoke`, { method: 'POST' });
  await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
  await browser.request('/bff/graphql', { json: { query: '{ nope }' } });

  // A refresh: the access token dies at the server, the BFF rotates the pair.
  await system.db
    .updateTable('access_tokens')
    .set({ revoked_at: system.clock.now() })
    .where('token_hash', '=', digest(first.accessToken))
    .execute();
  await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
  const second = (await readSessionTokens(system, browser))!;
  sessionTokens.push(second.accessToken, second.refreshToken);

  // Failures: a forged callback, a CSRF-less write, a bad body.
  await browser.navigate(`/bff/callback?code=${codes[0]}&state=forged`);
  await browser.request('/bff/graphql', { json: {}, headers: { 'x-latchkey-portal': undefined } });
  await browser.request('/bff/api/tokens', { body: 'name=x', headers: { 'content-type': 'text/plain' } });
  await browser.request('/bff/logout', { method: 'POST' });
});
afterAll(() => system?.close());

describe('TS-02 / BF-TK-01 no token reaches the browser', () => {
  it('the run went through: two token pairs were held, a client secret and a PAT were created', () => {
    expect(sessionTokens).toHaveLength(4);
    expect(new Set(sessionTokens).size).toBe(4);
    expect(clientSecret).toMatch(/^lks_/);
    expect(pat).toMatch(/^lkp_/);
    expect(browser.transcript.length).toBeGreaterThan(15);
  });

  it('no response body, header or cookie contains any access or refresh token', () => {
    const transcript = browser.transcript.join('\n\n');
    expect(transcript).not.toMatch(SESSION_TOKEN);
    for (const value of sessionTokens) expect(transcript).not.toContain(value);
  });

  it("the portal's own client secret never appears", () => {
    expect(browser.transcript.join('\n\n')).not.toContain(system.config.portal.clientSecret);
  });

  it('TS-04 a new client secret and a new PAT appear once each: in their creation response', () => {
    const transcript = browser.transcript.join('\n\n');
    expect(occurrences(transcript, clientSecret)).toBe(1);
    expect(occurrences(transcript, pat)).toBe(1);
  });
});

describe('RF-04 / TS-03 no secret in the logs or at rest', () => {
  it('the logs of all three servers hold no token, secret, code or state', () => {
    const logs = system.logs.join('\n');
    expect(system.logs.length).toBeGreaterThan(20);
    expect(logs).not.toMatch(ANY_SECRET);
    expect(logs).not.toContain(system.config.portal.clientSecret);
    for (const value of [...codes, ...states]) expect(logs).not.toContain(value);
  });

  it('the sessions table holds no token in plaintext', async () => {
    const rows = await system.db.selectFrom('sessions').select('data').execute();
    const all = rows.map((r) => r.data).join('\n');
    expect(all).not.toMatch(ANY_SECRET);
  });
});
