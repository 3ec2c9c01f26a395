import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationList, type Scope } from '@latchkey/contracts';
import { issueAuthorizationCode, redeemAuthorizationCode, type User } from '@latchkey/core';
import { authorizeViaPages, CookieJar, driveToDecision, signIn } from '#test/support/browserless-flow.ts';
import { makeClient, makePat, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { postGraphql } from '../../../../api/src/testing/post-graphql.ts';
import {
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  refreshWith,
  type TokenResponse,
} from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { callAccount, issuePortalToken, issueThirdPartyTokens, lifetimesOf } from '../account.fixture.ts';

// Issue 17: authorized applications. A user who signs in to one application four times sees it
// once, and "Revoke access" takes back everything that application holds for them.
let system: TestSystem;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(async () => {
  await system?.close();
});

type App = Awaited<ReturnType<typeof makeClient>>;
type Person = User & { password: string };

/** The whole flow as the application runs it: the pages (sign-in, consent when asked), then the code exchange. */
async function signInTo(app: App, person: Person, jar = new CookieJar()): Promise<TokenResponse> {
  const { code } = await authorizeViaPages(system, {
    clientId: app.client.id,
    redirectUri: app.client.redirectUris[0]!,
    state: 'st',
    user: person,
    jar,
  });
  return expectTokenResponse(await exchangeCode(system, app, code!));
}

async function apiStatus(token: string): Promise<number> {
  return (await postGraphql(system.apiUrl, { token })).status;
}

async function applicationsOf(person: User) {
  const answer = await callAccount(system, 'GET', '/account/applications', {
    token: await issuePortalToken(system, person),
  });
  expect(answer.status, answer.text).toBe(200);
  return applicationList.parse(answer.body);
}

async function revokeAccess(person: User, clientId: string) {
  return callAccount(system, 'POST', `/account/applications/${encodeURIComponent(clientId)}/revoke`, {
    token: await issuePortalToken(system, person),
  });
}

describe('AA authorized applications', () => {
  let developer: Person;
  let app: App;
  let ada: Person;
  let grace: Person;
  let adaPairs: TokenResponse[];
  let gracePair: TokenResponse;
  let adaBrowser: CookieJar;

  beforeAll(async () => {
    developer = await makeUser(system, 'Dev Eloper');
    app = await makeClient(system, developer, { name: 'Photo Printer' });
    ada = await makeUser(system, 'Ada Lovelace');
    grace = await makeUser(system, 'Grace Hopper');
    adaBrowser = new CookieJar();
    // The first sign-in asks for consent; the next three go through silently (D-9).
    adaPairs = [];
    for (let i = 0; i < 4; i += 1) adaPairs.push(await signInTo(app, ada, adaBrowser));
    gracePair = await signInTo(app, grace);
  });

  it('AA-01 four sign-ins to one application are one entry with 4 active grants, its owner and times', async () => {
    const [entry, ...others] = await applicationsOf(ada);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      client_id: app.client.id,
      name: 'Photo Printer',
      owner_name: 'Dev Eloper',
      active_grants: 4,
      first_authorized_at: new Date(system.clock.now()).toISOString(),
    });
  });

  it("AA-01 last used is the latest use of any of its tokens; the portal's own client is never listed", async () => {
    expect((await applicationsOf(ada))[0]!.last_used_at).toBeNull();
    // The API records uses in memory and writes them in batches; here the batch is written directly.
    const earlier = system.clock.now() - 60_000;
    const later = system.clock.now() - 1_000;
    const rows = await system.db
      .selectFrom('access_tokens')
      .select('id')
      .where('client_id', '=', app.client.id)
      .where('user_id', '=', ada.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(rows).toHaveLength(4);
    await system.db.updateTable('access_tokens').set({ last_used_at: earlier }).where('id', '=', rows[0]!.id).execute();
    await system.db.updateTable('access_tokens').set({ last_used_at: later }).where('id', '=', rows[2]!.id).execute();
    expect((await applicationsOf(ada))[0]!.last_used_at).toBe(new Date(later).toISOString());

    expect((await applicationsOf(ada)).map((a) => a.client_id)).not.toContain(system.config.portal.clientId);
    expect((await revokeAccess(ada, system.config.portal.clientId)).status).toBe(404);
  });

  it('SC-09 each application shows the scopes it holds: the union of its active grants’, empty once revoked', async () => {
    const person = await makeUser(system, 'Scope Person');
    const narrow = await makeClient(system, developer, { name: 'Name Reader' });
    const tokensWith = async (scopes: Scope[]) => {
      const redirectUri = narrow.client.redirectUris[0]!;
      const code = await issueAuthorizationCode(system.db, system.clock, {
        client: narrow.client,
        userId: person.id,
        redirectUri,
        codeChallenge: null,
        scopes,
      });
      return redeemAuthorizationCode(system.db, system.clock, lifetimesOf(system), {
        client: narrow.client,
        code,
        redirectUri,
        codeVerifier: undefined,
      });
    };
    await tokensWith(['profile']);
    expect((await applicationsOf(person))[0]).toMatchObject({ name: 'Name Reader', scopes: ['profile'] });
    await tokensWith(['email']);
    expect((await applicationsOf(person))[0]).toMatchObject({ active_grants: 2, scopes: ['profile', 'email'] });
    const revoked = await revokeAccess(person, narrow.client.id);
    expect(revoked.body).toMatchObject({ active_grants: 0, scopes: [] });
    // The default of a third-party client (SC-03): every third-party scope.
    expect((await applicationsOf(ada))[0]!.scopes).toEqual(['profile', 'email']);
  });

  it('AA-06 an unknown client id, or one the user never authorized, is 404 and nothing changes', async () => {
    const unrelated = await makeClient(system, developer, { name: 'Never Used' });
    for (const id of ['lkc_doesnotexist', unrelated.client.id, 'x'.repeat(64)]) {
      const answer = await revokeAccess(ada, id);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toMatchObject({ error: 'not_found' });
    }
    // Grace has authorized the app, but revoking it for Ada's account touches only Ada's.
    expect((await applicationsOf(ada))[0]!.active_grants).toBe(4);
    for (const pair of adaPairs) expect(await apiStatus(pair.access_token)).toBe(200);
  });

  it('AA-07 a personal access token or a third-party token cannot list or revoke applications (403)', async () => {
    const pat = await makePat(system, ada);
    for (const token of [pat, adaPairs[0]!.access_token]) {
      const list = await callAccount(system, 'GET', '/account/applications', { token });
      expect(list.status).toBe(403);
      const revoke = await callAccount(system, 'POST', `/account/applications/${app.client.id}/revoke`, { token });
      expect(revoke.status).toBe(403);
    }
    expect((await applicationsOf(ada))[0]!.active_grants).toBe(4);
  });

  it('AA-02 AA-03 AA-04 AA-05 Revoke access: every access token refused on the next API call, every refresh token invalid_grant, consent asked again; other users untouched', async () => {
    const answer = await revokeAccess(ada, app.client.id);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ client_id: app.client.id, active_grants: 0 });

    // AA-02: the very next request with any of the four access tokens.
    for (const pair of adaPairs) expect(await apiStatus(pair.access_token)).toBe(401);
    // AA-03: and none of the four refresh tokens gets a new pair.
    for (const pair of adaPairs)
      await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
    expect(await applicationsOf(ada)).toEqual([]);

    // AA-04: the same browser, still signed in, is asked again rather than sent back silently.
    const next = await driveToDecision(system, adaBrowser, {
      clientId: app.client.id,
      redirectUri: app.client.redirectUris[0]!,
      state: 'again',
    });
    expect(next.step).toBe('consent');

    // AA-05: Grace's grant to the same application still works, refresh included.
    expect(await apiStatus(gracePair.access_token)).toBe(200);
    const refreshed = await expectTokenResponse(await refreshWith(system, app, gracePair.refresh_token));
    expect(await apiStatus(refreshed.access_token)).toBe(200);
    expect((await applicationsOf(grace))[0]).toMatchObject({ client_id: app.client.id, active_grants: 1 });

    // Revoking again: nothing left to revoke.
    expect((await revokeAccess(ada, app.client.id)).status).toBe(404);
  });

  it('AA-02 a code issued but not yet exchanged when access is revoked cannot be exchanged afterwards', async () => {
    const other = await makeClient(system, developer, { name: 'Slow Exchanger' });
    const jar = new CookieJar();
    await signIn(system, jar, ada);
    const { code } = await authorizeViaPages(system, {
      clientId: other.client.id,
      redirectUri: other.client.redirectUris[0]!,
      state: 's',
      user: ada,
      jar,
    });
    expect((await revokeAccess(ada, other.client.id)).status).toBe(200);
    await expectOAuthError(await exchangeCode(system, other, code!), 400, 'invalid_grant');
  });

  it('AA-01 an application never approved on the consent page is listed while it holds a working token, and not after', async () => {
    const other = await makeClient(system, developer, { name: 'Quiet App' });
    const pair = await issueThirdPartyTokens(system, other.client, grace);
    // Tokens minted without the consent page: revoking the one token leaves nothing to list.
    const tokens = await callAccount(system, 'GET', '/account/tokens', {
      token: await issuePortalToken(system, grace),
    });
    const id = (tokens.body as Array<{ id: string; name: string }>).find((t) => t.name === 'Quiet App')!.id;
    expect((await applicationsOf(grace)).map((a) => a.name)).toContain('Quiet App');
    await callAccount(system, 'POST', `/account/tokens/${id}/revoke`, { token: await issuePortalToken(system, grace) });
    expect(await apiStatus(pair.accessToken)).toBe(401);
    expect((await applicationsOf(grace)).map((a) => a.name)).not.toContain('Quiet App');
  });
});
