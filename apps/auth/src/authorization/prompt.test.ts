import { describe, expect, it } from 'vitest';
import { deleteUser, hasConsented, type Client } from '@latchkey/core';
import {
  authorizeViaPages,
  CookieJar,
  findForm,
  followRedirect,
  openAuthorize,
  parseAuthorizationRedirect,
  signIn,
  submitDecision,
  submitSignIn,
} from '#test/support/browserless-flow.ts';
import { makeClient, makeUser, pkcePair, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, expectPageSecurityHeaders, REDIRECT_URI } from './authorize.fixture.ts';

const system = useSystem();
const { user, owner } = useUsers(system, { user: 'Ada Lovelace', owner: 'Client Owner' });

async function freshClient(): Promise<Client> {
  return (await makeClient(system, owner, { redirectUri: REDIRECT_URI })).client;
}

async function signedInBrowser(who = user): Promise<CookieJar> {
  const jar = new CookieJar();
  const result = await signIn(system, jar, who);
  expect(result.status).toBe(303);
  return jar;
}

describe('prompt and first-time-only consent (D-9)', () => {
  it('D-9 no prompt, signed in, never approved this client: the consent page, no code yet', async () => {
    const client = await freshClient();
    const jar = await signedInBrowser();
    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI });
    expect(page.status).toBe(200);
    expect(page.step).toBe('consent');
    expect(await countCodes(system)).toBe(before);
  });

  it('AZ-32 no prompt after a prior approval: immediate 303 with a code (user authenticated)', async () => {
    const client = await freshClient();
    const { jar } = await authorizeViaPages(system, { user, clientId: client.id, redirectUri: REDIRECT_URI });
    expect(await hasConsented(system.db, user.id, client.id)).toBe(true);
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'az32' });
    expect(page.status).toBe(303);
    const response = parseAuthorizationRedirect(page.location!);
    expect(response.code).toBeDefined();
    expect(response.state).toBe('az32');
  });

  it('AZ-32 an approval is per user: another user of the same client still sees consent', async () => {
    const client = await freshClient();
    await authorizeViaPages(system, { user, clientId: client.id, redirectUri: REDIRECT_URI });
    const otherJar = await signedInBrowser(owner);
    const page = await openAuthorize(system, otherJar, { clientId: client.id, redirectUri: REDIRECT_URI });
    expect(page.step).toBe('consent');
  });

  it('D-9 a denial is not remembered as approval: the next request asks again', async () => {
    const client = await freshClient();
    const denied = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      approve: false,
    });
    expect(denied.error).toBe('access_denied');
    expect(await hasConsented(system.db, user.id, client.id)).toBe(false);
    const page = await openAuthorize(system, denied.jar, { clientId: client.id, redirectUri: REDIRECT_URI });
    expect(page.step).toBe('consent');
  });

  it('AZ-31 prompt=consent after a prior approval: the consent page is shown again', async () => {
    const client = await freshClient();
    const { jar } = await authorizeViaPages(system, { user, clientId: client.id, redirectUri: REDIRECT_URI });
    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      prompt: 'consent',
      state: 'az31',
    });
    expect(page.status).toBe(200);
    expect(page.step).toBe('consent');
    expectPageSecurityHeaders(page, 'https://client.example');
    expect(await countCodes(system)).toBe(before);
    const allowed = await submitDecision(system, jar, page, 'allow');
    expect(parseAuthorizationRedirect(allowed.location!).state).toBe('az31');
  });

  it('AZ-30 prompt=login with a live session: the sign-in form, and no code until credentials are entered again', async () => {
    const client = await freshClient();
    const { jar } = await authorizeViaPages(system, { user, clientId: client.id, redirectUri: REDIRECT_URI });
    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      prompt: 'login',
      state: 'az30',
    });
    expect(page.status).toBe(200);
    expect(page.step).toBe('signin');
    expect(page.html).toContain('Confirm it’s you');
    expect(page.html).toContain(`value="${user.email}"`);

    // Skipping the form and going straight to the continue step still asks for credentials.
    const requestId = findForm(page.html, '/signin')!.fields.request!;
    const skipped = await followRedirect(system, jar, {
      ...page,
      location: `${system.authUrl}/oauth/authorize/continue?request=${requestId}`,
    });
    expect(skipped.step).toBe('signin');

    // A wrong password does not satisfy it either.
    const wrong = await submitSignIn(system, jar, page, { email: user.email, password: 'not-the-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain('Confirm it’s you');
    expect(await countCodes(system)).toBe(before);

    const signedIn = await submitSignIn(system, jar, page, user);
    const done = await followRedirect(system, jar, signedIn);
    expect(done.status).toBe(303);
    const response = parseAuthorizationRedirect(done.location!);
    expect(response.code).toBeDefined();
    expect(response.state).toBe('az30');
    expect(await countCodes(system)).toBe(before + 1);
  });

  it('AZ-30 prompt=login, not signed in: sign in once, then consent for a new client', async () => {
    const client = await freshClient();
    const jar = new CookieJar();
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, prompt: 'login' });
    expect(page.step).toBe('signin');
    const consent = await followRedirect(system, jar, await submitSignIn(system, jar, page, user));
    expect(consent.step).toBe('consent');
  });

  it('first-party client (the portal) skips consent, even on first use, and binds the PKCE challenge', async () => {
    const jar = await signedInBrowser();
    const { challenge } = pkcePair();
    const redirectUri = system.config.portal.redirectUri;
    const page = await openAuthorize(system, jar, {
      clientId: system.config.portal.clientId,
      redirectUri,
      codeChallenge: challenge,
      state: 'fp',
    });
    expect(page.status).toBe(303);
    expect(page.location!.startsWith(`${redirectUri}?code=`)).toBe(true);
    expect(parseAuthorizationRedirect(page.location!).state).toBe('fp');
    expect(await hasConsented(system.db, user.id, system.config.portal.clientId)).toBe(false);
  });

  it('first-party client with prompt=consent: still no consent screen (the portal is first-party)', async () => {
    const jar = await signedInBrowser();
    const page = await openAuthorize(system, jar, {
      clientId: system.config.portal.clientId,
      redirectUri: system.config.portal.redirectUri,
      codeChallenge: pkcePair().challenge,
      prompt: 'consent',
    });
    expect(page.status).toBe(303);
    expect(parseAuthorizationRedirect(page.location!).code).toBeDefined();
  });

  it('a session whose user was deleted counts as signed out: sign-in page, no code', async () => {
    const doomed = await makeUser(system, 'Short Lived');
    const client = await freshClient();
    const { jar } = await authorizeViaPages(system, { user: doomed, clientId: client.id, redirectUri: REDIRECT_URI });
    await deleteUser(system.db, doomed.id);
    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI });
    expect(page.step).toBe('signin');
    expect(page.html).not.toContain(doomed.email);
    expect(await countCodes(system)).toBe(before);
  });

  it('a pending request expires after 30 minutes: the continue step is a 400 page', async () => {
    const client = await freshClient();
    const jar = new CookieJar();
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI });
    system.clock.advance(31 * 60 * 1000);
    const after = await followRedirect(system, jar, await submitSignIn(system, jar, page, user));
    expect(after.status).toBe(400);
    expect(after.html).toContain('expired');
    expect(after.location).toBeUndefined();
  });
});
