// Issue 19: clients that can be edited, with several redirect URLs. Runs on SQLite and, in the
// node-pg project, on PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeViaPages,
  CookieJar,
  followRedirect,
  getConsent,
  openAuthorize,
  submitDecision,
  submitSignIn,
} from '#test/support/browserless-flow.ts';
import { useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, expectErrorPage } from '../../authorization/authorize.fixture.ts';
import { exchangeCode } from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

const system = useSystem();
const { alice, bob } = useUsers(system, { alice: 'Alice', bob: 'Bob' });
let aliceToken: string;
let bobToken: string;

const PROD = 'https://app.example/callback';
const STAGING = 'https://staging.app.example/callback';
const LOCAL = 'http://localhost:5173/callback';

interface RegisteredClient {
  id: string;
  secret: string;
}

async function register(json: Record<string, unknown>): Promise<RegisteredClient> {
  const res = await callAccount(system, 'POST', '/account/clients', { token: aliceToken, json });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.client.client_id, secret: res.body.client_secret };
}

async function edit(id: string, json: unknown, token = aliceToken) {
  return callAccount(system, 'PATCH', `/account/clients/${encodeURIComponent(id)}`, { token, json });
}

async function clientRow(id: string) {
  return system.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The documented flow through the pages and the token endpoint, with this redirect URL. */
async function signInThrough(client: RegisteredClient, redirectUri: string, jar?: CookieJar) {
  const result = await authorizeViaPages(system, { user: alice, clientId: client.id, redirectUri, jar });
  expect(result.location.startsWith(`${redirectUri}?`), result.location).toBe(true);
  const res = await exchangeCode(
    system,
    { client: { id: client.id, redirectUris: [redirectUri] } as never, clientSecret: client.secret },
    result.code!,
  );
  expect(res.status).toBe(200);
  return { ...result, tokens: (await res.json()) as { access_token: string; refresh_token: string } };
}

async function graphqlStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  return res.status;
}

beforeAll(async () => {
  aliceToken = await issuePortalToken(system, alice);
  bobToken = await issuePortalToken(system, bob);
});

describe('issue 19: several redirect URLs', () => {
  it('CE-02 a client registered with three redirect URLs: each one completes the documented flow', async () => {
    const client = await register({ name: 'Three homes', redirect_uris: [PROD, STAGING, LOCAL] });
    const got = await callAccount(system, 'GET', `/account/clients/${client.id}`, { token: aliceToken });
    expect(got.body).toMatchObject({ redirect_uri: PROD, redirect_uris: [PROD, STAGING, LOCAL] });
    let jar: CookieJar | undefined;
    for (const uri of [PROD, STAGING, LOCAL]) {
      const { tokens, jar: used } = await signInThrough(client, uri, jar);
      jar = used;
      expect(await graphqlStatus(tokens.access_token), uri).toBe(200);
    }
  });

  it('CE-03 with several registered, one not byte-for-byte among them gets a 400 page: no redirect, no code', async () => {
    const client = await register({ name: 'Near misses', redirect_uris: [PROD, STAGING] });
    const jar = (await signInThrough(client, PROD)).jar;
    const before = await countCodes(system);
    for (const uri of [
      'https://other.app.example/callback',
      `${PROD}/`,
      'https://APP.example/callback',
      'https://app.example/Callback',
      `${STAGING}?env=staging`,
      `${PROD}#x`,
      'https://app.example:443/callback',
    ]) {
      const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: uri, state: 's' });
      expectErrorPage(page);
      expect(page.html, uri).toContain('redirect_uri');
    }
    expect(await countCodes(system)).toBe(before);
  });

  it('CE-04 the token endpoint refuses a redirect_uri other than the one used at authorize, even a registered one', async () => {
    const client = await register({ name: 'Two homes', redirect_uris: [PROD, STAGING] });
    const result = await authorizeViaPages(system, { user: alice, clientId: client.id, redirectUri: STAGING });
    const creds = { client: { id: client.id, redirectUris: [PROD] } as never, clientSecret: client.secret };
    const wrong = await exchangeCode(system, creds, result.code!);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');
    // The refusal changed nothing (OAuth 2.1 §4.1.3): the same code with the URL it was issued for works.
    const right = await exchangeCode(system, creds, result.code!, { redirect_uri: STAGING });
    expect(right.status).toBe(200);
  });

  it('CE-02 eleven redirect URLs, a duplicate, an empty list or a bad entry are 400 naming redirect_uris; nothing is stored', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `https://app${i}.example/cb`);
    const client = await register({ name: 'Limits', redirect_uri: PROD });
    const rows = async () => (await system.db.selectFrom('clients').select('id').execute()).length;
    const count = await rows();
    const before = await clientRow(client.id);
    for (const redirect_uris of [eleven, [PROD, PROD], [], [PROD, 'http://insecure.example/cb'], [PROD, 42]]) {
      const created = await callAccount(system, 'POST', '/account/clients', {
        token: aliceToken,
        json: { name: 'Too many', redirect_uris },
      });
      expect(created.status, JSON.stringify(redirect_uris)).toBe(400);
      expect(created.body).toMatchObject({ error: 'validation_failed', field: 'redirect_uris' });
      const edited = await edit(client.id, { name: 'Renamed too', redirect_uris });
      expect(edited.status).toBe(400);
      expect(edited.body).toMatchObject({ error: 'validation_failed', field: 'redirect_uris' });
    }
    expect(await rows()).toBe(count);
    expect(await clientRow(client.id)).toEqual(before);
    // Ten is the limit, not a refusal.
    expect((await edit(client.id, { redirect_uris: eleven.slice(0, 10) })).body.redirect_uris).toHaveLength(10);
    // Both forms at once are ambiguous.
    const both = await edit(client.id, { redirect_uri: PROD, redirect_uris: [PROD] });
    expect(both.status).toBe(400);
    expect(both.body.field).toBe('redirect_uris');
  });
});

describe('issue 19: PATCH /account/clients/:id', () => {
  it('CE-01 CE-07 an edit of the redirect URLs takes effect on the next authorization; removing one revokes no grant', async () => {
    const client = await register({ name: 'Moving house', redirect_uri: PROD });
    const first = await signInThrough(client, PROD);
    const res = await edit(client.id, { redirect_uris: [STAGING] });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ client_id: client.id, redirect_uri: STAGING, redirect_uris: [STAGING] });
    // The old URL is refused at once, the new one works.
    expectErrorPage(await openAuthorize(system, first.jar, { clientId: client.id, redirectUri: PROD }));
    await signInThrough(client, STAGING, first.jar);
    // The grant made through the removed URL still works: its access token and its refresh.
    expect(await graphqlStatus(first.tokens.access_token)).toBe(200);
    const refreshed = await fetch(`${system.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: first.tokens.refresh_token,
        client_id: client.id,
        client_secret: client.secret,
      }),
    });
    expect(refreshed.status).toBe(200);
  });

  it('CE-15 a redirect URL removed while the consent page is open, or before sign-in completes: a page, no code', async () => {
    const client = await register({ name: 'Pulled', redirect_uris: [PROD, STAGING] });
    const jar = new CookieJar();
    const consent = await getConsent(system, jar, { clientId: client.id, redirectUri: STAGING, state: 's' }, alice);
    const signingIn = new CookieJar();
    const signInPage = await openAuthorize(system, signingIn, { clientId: client.id, redirectUri: STAGING });
    expect(signInPage.step).toBe('signin');
    expect((await edit(client.id, { redirect_uris: [PROD] })).status).toBe(200);
    const before = await countCodes(system);
    expectErrorPage(await submitDecision(system, jar, consent, 'allow'));
    let page = await submitSignIn(system, signingIn, signInPage, alice);
    if (page.step === 'redirect' && page.location?.startsWith(system.authUrl))
      page = await followRedirect(system, signingIn, page);
    expectErrorPage(page);
    expect(page.html).toContain('no longer registered');
    expect(await countCodes(system)).toBe(before);
  });

  it('CE-01 name and details change at once and show on the next consent page; blank or null clears a detail', async () => {
    const client = await register({ name: 'Plain', redirect_uri: PROD });
    const res = await edit(client.id, {
      name: '  Weather Station ',
      description: ' Forecasts for your garden. ',
      client_uri: 'https://weather.example/',
      policy_uri: 'https://weather.example/privacy',
      tos_uri: 'https://weather.example/terms',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Weather Station',
      description: 'Forecasts for your garden.',
      client_uri: 'https://weather.example/',
      policy_uri: 'https://weather.example/privacy',
      tos_uri: 'https://weather.example/terms',
      redirect_uris: [PROD],
    });
    const jar = new CookieJar();
    const consent = await openAuthorize(system, jar, { clientId: client.id, redirectUri: PROD });
    expect(consent.step).toBe('signin');
    expect(consent.html).toContain('Weather Station');

    const cleared = await edit(client.id, { description: '', client_uri: null, policy_uri: '  ' });
    expect(cleared.body).toMatchObject({
      description: null,
      client_uri: null,
      policy_uri: null,
      tos_uri: 'https://weather.example/terms',
      name: 'Weather Station',
    });
    // An empty edit changes nothing and answers the client.
    expect((await edit(client.id, {})).body).toEqual(cleared.body);
  });

  it('CE-06 a bad field is 400 naming it, and nothing changes, not even the good fields sent with it', async () => {
    const client = await register({ name: 'Steady', redirect_uri: PROD, description: 'Before' });
    const before = await clientRow(client.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'Latchkey Admin' }, 'name'],
      [{ name: 7 }, 'name'],
      [{ redirect_uri: 'javascript:alert(1)' }, 'redirect_uri'],
      [{ redirect_uris: 'https://app.example/cb' }, 'redirect_uris'],
      [{ description: 'x'.repeat(301) }, 'description'],
      [{ description: 'Evil\u202Eppa' }, 'description'],
      [{ client_uri: 'javascript:alert(1)' }, 'client_uri'],
      [{ client_uri: 'http://weather.example/' }, 'client_uri'],
      [{ policy_uri: 'data:text/html,<b>x</b>' }, 'policy_uri'],
      [{ tos_uri: 'not a url' }, 'tos_uri'],
      [{ tos_uri: 5 }, 'tos_uri'],
      [{ post_logout_redirect_uri: 'https://weather.example/bye#x' }, 'post_logout_redirect_uri'],
    ];
    for (const [json, field] of cases) {
      const res = await edit(client.id, {
        ...json,
        ...(field !== 'name' && { name: 'Changed' }),
        description: field === 'description' ? json.description : 'Changed',
      });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field });
      expect(res.body.error_description).toEqual(expect.any(String));
    }
    expect(await clientRow(client.id)).toEqual(before);
    const notJson = await callAccount(system, 'PATCH', `/account/clients/${client.id}`, {
      token: aliceToken,
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(415);
    expect(await clientRow(client.id)).toEqual(before);
  });

  it('CE-05 another user’s client, an unknown id and the portal’s own client are 404 to GET and PATCH, and unchanged', async () => {
    const client = await register({ name: 'Alice’s', redirect_uri: PROD });
    const before = await clientRow(client.id);
    for (const id of [client.id, 'lkc_doesnotexist', system.config.portal.clientId]) {
      const got = await callAccount(system, 'GET', `/account/clients/${encodeURIComponent(id)}`, { token: bobToken });
      expect(got.status, id).toBe(404);
      expect(got.body.error).toBe('not_found');
      const res = await edit(id, { name: 'Mine now', redirect_uris: ['https://bob.example/cb'] }, bobToken);
      expect(res.status, id).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect(await clientRow(client.id)).toEqual(before);
    const portal = await clientRow(system.config.portal.clientId);
    expect(JSON.parse(portal.redirect_uris)).toEqual([system.config.portal.redirectUri]);
  });

  it('CE-08 a revoked client cannot be edited: 409, unchanged', async () => {
    const client = await register({ name: 'Gone', redirect_uri: PROD });
    await callAccount(system, 'POST', `/account/clients/${client.id}/revoke`, { token: aliceToken });
    const before = await clientRow(client.id);
    const res = await edit(client.id, { redirect_uris: [STAGING] });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('conflict');
    expect(await clientRow(client.id)).toEqual(before);
  });

  it('other methods on /account/clients/:id are 405 with Allow', async () => {
    const client = await register({ name: 'Methods', redirect_uri: PROD });
    const res = await callAccount(system, 'DELETE', `/account/clients/${client.id}`, { token: aliceToken });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PATCH');
  });
});
