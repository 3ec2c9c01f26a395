import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationList, type ApplicationJson } from '@latchkey/contracts';
import type { Client, User } from '@latchkey/core';
import { authorizeViaPages, CookieJar, driveToDecision } from '#test/support/browserless-flow.ts';
import { makeClient, makeUser, pkcePair, type TestUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { postGraphql } from '../../../../api/src/testing/post-graphql.ts';
import {
  expectOAuthError,
  expectTokenResponse,
  postForm,
  tokenUrl,
  type TokenResponse,
} from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { insertSelfRegisteredClient } from '../../authorization/consent/self-registered.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

// Issue 32: applications that registered themselves, in the list of authorized applications.
// One known by its client ID metadata document is listed with the host of that document, which
// is what the user can judge it by; one that registered itself at /oauth/register says so.
// Revoke access is what it is for any application.
let system: TestSystem;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(async () => {
  await system?.close();
});

/** The whole flow as a public client runs it: the pages (consent), then the code exchange with PKCE. */
async function signInTo(client: Client, person: TestUser, jar = new CookieJar()): Promise<TokenResponse> {
  const { verifier, challenge } = pkcePair();
  const redirectUri = client.redirectUris[0]!;
  const { code } = await authorizeViaPages(system, {
    clientId: client.id,
    redirectUri,
    state: 'st',
    codeChallenge: challenge,
    user: person,
    jar,
  });
  return expectTokenResponse(
    await postForm(tokenUrl(system), {
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri,
      client_id: client.id,
      code_verifier: verifier,
    }),
  );
}

function refresh(client: Client, refreshToken: string): Promise<Response> {
  return postForm(tokenUrl(system), { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.id });
}

async function apiStatus(token: string): Promise<number> {
  return (await postGraphql(system.apiUrl, { token })).status;
}

async function applicationsOf(person: User): Promise<ApplicationJson[]> {
  const answer = await callAccount(system, 'GET', '/account/applications', {
    token: await issuePortalToken(system, person),
  });
  expect(answer.status, answer.text).toBe(200);
  return applicationList.parse(answer.body);
}

describe('CM-16 self-registered applications among the authorized applications', () => {
  let ada: TestUser;
  let documentClient: Client;
  let dynamicClient: Client;
  let registered: Client;
  let pairs: TokenResponse[];
  let browser: CookieJar;

  beforeAll(async () => {
    ada = await makeUser(system, 'Ada Lovelace');
    const developer = await makeUser(system, 'Dev Eloper');
    documentClient = await insertSelfRegisteredClient(system.db, system.clock, {
      registration: 'metadata_document',
      id: 'https://agents.example/latchkey/client.json',
      name: 'Helpful Agent',
      redirectUris: ['https://agents.example/callback'],
    });
    dynamicClient = await insertSelfRegisteredClient(system.db, system.clock, {
      registration: 'dynamic',
      name: 'Night Owl',
      redirectUris: ['https://owl.example/cb'],
    });
    registered = (await makeClient(system, developer, { name: 'Photo Printer' })).client;
    browser = new CookieJar();
    // The first sign-in asks for consent (CM-15); the second goes through silently.
    pairs = [await signInTo(documentClient, ada, browser), await signInTo(documentClient, ada, browser)];
    await signInTo(dynamicClient, ada);
  });

  it('CM-16 a metadata-document client is listed with its document’s host; a dynamic one as registered itself; a registered one as before', async () => {
    const bySelf = await applicationsOf(ada);
    expect(bySelf).toEqual([
      expect.objectContaining({
        client_id: documentClient.id,
        name: 'Helpful Agent',
        owner_name: null,
        registration: 'metadata_document',
        host: 'agents.example',
        active_grants: 2,
      }),
      expect.objectContaining({
        client_id: dynamicClient.id,
        name: 'Night Owl',
        owner_name: null,
        registration: 'dynamic',
        host: null,
        active_grants: 1,
      }),
    ]);
    // Every field of before is still there, with issue 32's two and issue 35's two (the contract's schema parses them).
    expect(Object.keys(bySelf[0]!).sort()).toEqual(
      [
        'client_id',
        'name',
        'owner_name',
        'first_authorized_at',
        'last_used_at',
        'last_used_ip',
        'last_used_user_agent',
        'active_grants',
        'scopes',
        'registration',
        'host',
      ].sort(),
    );

    const grace = await makeUser(system, 'Grace Hopper');
    await authorizeViaPages(system, {
      clientId: registered.id,
      redirectUri: registered.redirectUris[0]!,
      user: grace,
    });
    expect(await applicationsOf(grace)).toEqual([
      expect.objectContaining({
        client_id: registered.id,
        owner_name: 'Dev Eloper',
        registration: 'registered',
        host: null,
      }),
    ]);
  });

  it('CM-16 Revoke access of a metadata-document client: its tokens are refused at the API from the next request, refresh fails, consent is asked again', async () => {
    for (const pair of pairs) expect(await apiStatus(pair.access_token)).toBe(200);
    // The id is a URL: one path segment, percent-encoded.
    const answer = await callAccount(
      system,
      'POST',
      `/account/applications/${encodeURIComponent(documentClient.id)}/revoke`,
      { token: await issuePortalToken(system, ada) },
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      client_id: documentClient.id,
      registration: 'metadata_document',
      host: 'agents.example',
      active_grants: 0,
    });

    for (const pair of pairs) expect(await apiStatus(pair.access_token)).toBe(401);
    for (const pair of pairs)
      await expectOAuthError(await refresh(documentClient, pair.refresh_token), 400, 'invalid_grant');
    expect((await applicationsOf(ada)).map((app) => app.client_id)).toEqual([dynamicClient.id]);

    // The same browser, still signed in, is asked again.
    const next = await driveToDecision(system, browser, {
      clientId: documentClient.id,
      redirectUri: documentClient.redirectUris[0]!,
      state: 'again',
      codeChallenge: pkcePair().challenge,
    });
    expect(next.step).toBe('consent');
    expect(next.html).toContain('An app from <strong class="app-host">agents.example</strong>');
  });
});
