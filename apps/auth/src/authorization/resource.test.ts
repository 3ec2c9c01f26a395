import { describe, expect, it } from 'vitest';
import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import { IdPrefix, newId, normaliseResourceIndicator, type Client } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import {
  authorizeViaPages,
  CookieJar,
  driveToDecision,
  fetchPage,
  findForm,
  getConsent,
  openAuthorize,
  submitDecision,
  type AuthorizeRequest,
} from '#test/support/browserless-flow.ts';
import { makeClient, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { exchangeCode, expectTokenResponse } from '../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { countCodes, expectErrorRedirect, REDIRECT_URI } from './authorize.fixture.ts';

// RFC 8707 resource indicators at /oauth/authorize (issue 31): RS-01, RS-02, RS-03, RS-08, RS-11.
const system = useSystem();
const { user, owner } = useUsers(system, { user: 'Ada Lovelace', owner: 'Olivia Owner' });

interface App {
  client: Client;
  clientSecret: string;
}

async function freshApp(): Promise<App> {
  return makeClient(system, owner, { redirectUri: REDIRECT_URI });
}

/** A resource server as `resource create` registers it (a row; its id is the tokens' audience). */
async function registerServer(uri: string, name: string, scope = 'profile'): Promise<{ id: string; uri: string }> {
  const id = newId(IdPrefix.resourceServer);
  const normalised = normaliseResourceIndicator(uri)!;
  await system.db
    .insertInto('resource_servers')
    .values({ id, uri: normalised, name, scope, created_at: system.clock.now(), revoked_at: null })
    .execute();
  return { id, uri: normalised };
}

let servers = 0;
/** A server of its own per test: URIs are unique. */
function serverUri(): string {
  servers += 1;
  return `https://rs${servers}.example.test/api`;
}

function request(app: App, more: { resource?: string[]; scope?: string; prompt?: string } = {}): AuthorizeRequest {
  return {
    clientId: app.client.id,
    redirectUri: REDIRECT_URI,
    state: 'rs-state',
    ...(more.prompt !== undefined && { prompt: more.prompt }),
    extra: [
      ...(more.scope === undefined ? [] : [['scope', more.scope] as [string, string]]),
      ...(more.resource ?? []).map((r) => ['resource', r] as [string, string]),
    ],
  };
}

/** The audience the grant, the code and its access token carry, after the documented exchange. */
async function audiences(app: App, code: string, resource?: string) {
  const tokens = await expectTokenResponse(
    await exchangeCode(system, app, code, resource === undefined ? {} : { resource }),
  );
  const row = await system.db
    .selectFrom('authorization_codes as c')
    .innerJoin('grants as g', 'g.id', 'c.grant_id')
    .innerJoin('access_tokens as t', 't.grant_id', 'g.id')
    .select(['c.audience as code', 'g.audience as grant', 't.audience as token', 'g.scope as scope'])
    .where('c.code_hash', '=', digest(code))
    .executeTakeFirstOrThrow();
  return { ...row, accessToken: tokens.access_token };
}

async function graphqlStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  return res.status;
}

/** A browser signed in as `user` that approved `app` for the Latchkey API (no resource). */
async function approvedBrowser(app: App): Promise<CookieJar> {
  const { jar, code } = await authorizeViaPages(system, { ...request(app), user });
  expect(code).toBeDefined();
  return jar;
}

describe('RS-01 resource at /oauth/authorize names the Latchkey API or a registered resource server', () => {
  it('RS-01 resource={API_URL}/mcp: the code gives a token for the Latchkey API that works at /graphql', async () => {
    const app = await freshApp();
    const { code } = await authorizeViaPages(system, { ...request(app, { resource: [`${system.apiUrl}/mcp`] }), user });
    const row = await audiences(app, code!);
    expect(row).toMatchObject({
      code: LATCHKEY_API_AUDIENCE,
      grant: LATCHKEY_API_AUDIENCE,
      token: LATCHKEY_API_AUDIENCE,
    });
    expect(await graphqlStatus(row.accessToken)).toBe(200);
  });

  it('RS-01 each of the API identifiers ({API_URL}, /graphql, with a trailing slash on the root) is the API', async () => {
    const app = await freshApp();
    const jar = await approvedBrowser(app);
    for (const resource of [system.apiUrl, `${system.apiUrl}/`, `${system.apiUrl}/graphql`]) {
      // A remembered approval covers the API whichever identifier names it.
      const { code } = await authorizeViaPages(system, { ...request(app, { resource: [resource] }), user, jar });
      expect((await audiences(app, code!)).token).toBe(LATCHKEY_API_AUDIENCE);
    }
  });

  it('RS-01 RS-11 a registered resource server: the consent page names it even after an earlier approval, and the token is its', async () => {
    const app = await freshApp();
    await approvedBrowser(app);
    const server = await registerServer(serverUri(), 'Weather Service');
    // A new browser: the request travels sealed through the sign-in page.
    const jar = new CookieJar();
    const consent = await getConsent(system, jar, request(app, { resource: [server.uri] }), user);
    expect(consent.html).toContain('<strong>Weather Service</strong>');
    expect(consent.html).toContain(`(${new URL(server.uri).host})`);
    // Nothing is marked new: the earlier approval was for the API, not this server.
    expect(consent.html).not.toContain('New:');
    const page = await submitDecision(system, jar, consent, 'allow');
    const code = new URL(page.location!).searchParams.get('code')!;
    const row = await audiences(app, code, server.uri);
    expect(row).toMatchObject({ code: server.id, grant: server.id, token: server.id, scope: 'profile' });

    // Approved once, it is still asked again (a remembered approval never covers it), by a signed-in browser too.
    const again = await driveToDecision(system, jar, request(app, { resource: [server.uri] }));
    expect(again.step).toBe('consent');
    expect(again.html).toContain('Weather Service');
  });

  it('RS-11 prompt=none for a resource server other than the API: consent_required, though the client was approved', async () => {
    const app = await freshApp();
    const jar = await approvedBrowser(app);
    const server = await registerServer(serverUri(), 'Silent Service');
    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, request(app, { resource: [server.uri], prompt: 'none' }));
    expectErrorRedirect(system, page, REDIRECT_URI, 'consent_required', 'rs-state');
    expect(await countCodes(system)).toBe(before);
    // The same request for the API is approved silently.
    const api = await openAuthorize(system, jar, request(app, { resource: [system.apiUrl], prompt: 'none' }));
    expect(new URL(api.location!).searchParams.get('code')).not.toBeNull();
  });

  it('RS-11 an approval for another resource server is not remembered as one for the API', async () => {
    const app = await freshApp();
    const server = await registerServer(serverUri(), 'Separate Service');
    const jar = new CookieJar();
    const consent = await getConsent(system, jar, request(app, { resource: [server.uri] }), user);
    const allowed = await submitDecision(system, jar, consent, 'allow');
    expect(new URL(allowed.location!).searchParams.get('code')).not.toBeNull();
    // The same scope, for the API: still never approved.
    const api = await openAuthorize(system, jar, request(app, { scope: 'profile', prompt: 'none' }));
    expectErrorRedirect(system, api, REDIRECT_URI, 'consent_required', 'rs-state');
  });

  it('RS-01 "Not you? Switch account" sends the browser back to the same request, resource included', async () => {
    const app = await freshApp();
    const server = await registerServer(serverUri(), 'Shared Service');
    const jar = new CookieJar();
    const consent = await getConsent(system, jar, request(app, { resource: [server.uri] }), user);
    const form = findForm(consent.html, '/oauth/authorize/switch-account')!;
    const switched = await fetchPage(system, jar, '/oauth/authorize/switch-account', { form: form.fields });
    expect(switched.status).toBe(303);
    expect(new URL(switched.location!).searchParams.getAll('resource')).toEqual([server.uri]);
  });

  it('RS-01 a resource server revoked while the consent page was open: invalid_target on Allow, no code', async () => {
    const app = await freshApp();
    const server = await registerServer(serverUri(), 'Short-lived Service');
    const jar = new CookieJar();
    const consent = await getConsent(system, jar, request(app, { resource: [server.uri] }), user);
    await system.db
      .updateTable('resource_servers')
      .set({ revoked_at: system.clock.now() })
      .where('id', '=', server.id)
      .execute();
    const before = await countCodes(system);
    const page = await submitDecision(system, jar, consent, 'allow');
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_target', 'rs-state');
    expect(await countCodes(system)).toBe(before);
  });
});

describe('RS-01 RS-02 a resource that is not one is invalid_target on the redirect', () => {
  async function expectInvalidTarget(app: App, jar: CookieJar, resource: string[]) {
    const before = await countCodes(system);
    // A signed-in browser that approved the client: without the check a code would follow.
    const page = await openAuthorize(system, jar, request(app, { resource }));
    const response = expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_target', 'rs-state');
    expect(await countCodes(system)).toBe(before);
    return response;
  }

  it('RS-01 unknown, relative, with a fragment, urn:, credentials, too long, revoked: invalid_target, input not echoed', async () => {
    const app = await freshApp();
    const jar = await approvedBrowser(app);
    const revoked = await registerServer(serverUri(), 'Gone Service');
    await system.db
      .updateTable('resource_servers')
      .set({ revoked_at: system.clock.now() })
      .where('id', '=', revoked.id)
      .execute();
    const cases = [
      'https://unknown-marker.example/api',
      '/graphql',
      'api.example/marker',
      `${system.apiUrl}/graphql#marker`,
      `${system.apiUrl}#`,
      'urn:marker:api',
      `http://marker:secret@${new URL(system.apiUrl).host}/graphql`,
      `${system.apiUrl}/graphql?marker=${'x'.repeat(1100)}`,
      `${system.apiUrl}/other-marker`,
      revoked.uri,
    ];
    for (const resource of cases) {
      const response = await expectInvalidTarget(app, jar, [resource]);
      expect(response.errorDescription ?? '', resource).toMatch(/resource/i);
      expect(response.errorDescription ?? '', resource).not.toContain('marker');
    }
  });

  it('RS-02 resource given twice, even the same value: invalid_target ("one resource per request")', async () => {
    const app = await freshApp();
    const jar = await approvedBrowser(app);
    const server = await registerServer(serverUri(), 'Twice Service');
    await expectInvalidTarget(app, jar, [system.apiUrl, system.apiUrl]);
    const response = await expectInvalidTarget(app, jar, [server.uri, `${system.apiUrl}/graphql`]);
    expect(response.errorDescription).toMatch(/one resource/i);
  });
});

describe('RS-08 a resource server bounds the scopes of its tokens', () => {
  it('RS-08 scope=email for a server registered with only profile: invalid_scope on the redirect, no code', async () => {
    const app = await freshApp();
    const jar = await approvedBrowser(app);
    const server = await registerServer(serverUri(), 'Profile Service', 'profile');
    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, request(app, { resource: [server.uri], scope: 'profile email' }));
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_scope', 'rs-state');
    expect(await countCodes(system)).toBe(before);
  });

  it('RS-08 no scope: the client default within the server scopes; openid still asks for an ID token', async () => {
    const app = await freshApp();
    const server = await registerServer(serverUri(), 'Narrow Service', 'profile');
    const { code } = await authorizeViaPages(system, { ...request(app, { resource: [server.uri] }), user });
    expect((await audiences(app, code!, server.uri)).scope).toBe('profile');
    const withOpenid = await authorizeViaPages(system, {
      ...request(app, { resource: [server.uri], scope: 'openid' }),
      user,
    });
    // No exchange here: with openid the token response carries an ID token (OI-01).
    const row = await system.db
      .selectFrom('authorization_codes')
      .select(['scope', 'audience'])
      .where('code_hash', '=', digest(withOpenid.code!))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ scope: 'openid profile', audience: server.id });
  });
});

describe('RS-03 without resource the audience is the Latchkey API', () => {
  it('RS-03 the documented flow: grant, code and access token are for the API, and the token works at /graphql', async () => {
    const app = await freshApp();
    const { code } = await authorizeViaPages(system, { ...request(app), user });
    const row = await audiences(app, code!);
    expect(row).toMatchObject({
      code: LATCHKEY_API_AUDIENCE,
      grant: LATCHKEY_API_AUDIENCE,
      token: LATCHKEY_API_AUDIENCE,
    });
    expect(row.scope).toBe('profile email');
    expect(await graphqlStatus(row.accessToken)).toBe(200);
  });
});
