import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeClient, type User } from '@latchkey/core';
import {
  CookieJar,
  fetchPage,
  findForm,
  openAuthorize,
  signIn,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { countAllRows, makeClient, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { expectErrorPage } from '../../authorization/authorize.fixture.ts';

// Issue 14 / docs/sign-out.md: the end-session endpoint, GET and POST /oauth/logout, in the
// shape of OpenID RP-Initiated Logout 1.0.
let system: TestSystem;
let user: User & { password: string };
let app: Awaited<ReturnType<typeof makeClient>>;
let plain: Awaited<ReturnType<typeof makeClient>>;
const APP_REDIRECT = 'https://client.example/cb';
const APP_SIGNED_OUT = 'https://client.example/signed-out?from=latchkey';
const COOKIE = 'lk_auth_sid';

beforeAll(async () => {
  system = await startSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
  user = await makeUser(system, 'Grace Hopper');
  const owner = await makeUser(system, 'Olive Owner');
  app = await makeClient(system, owner, { name: 'Weather Widget', postLogoutRedirectUri: APP_SIGNED_OUT });
  plain = await makeClient(system, owner, { name: 'No Return App', redirectUri: 'https://plain.example/cb' });
});
afterAll(async () => {
  await system?.close();
});

function portal() {
  return { clientId: system.config.portal.clientId, signedOut: system.config.portal.postLogoutRedirectUri };
}

async function signedInJar(): Promise<CookieJar> {
  const jar = new CookieJar();
  const answer = await signIn(system, jar, user);
  expect(answer.status).toBe(303);
  return jar;
}

/** What the next /oauth/authorize of a third-party app shows this browser, prompt omitted. */
async function nextAuthorize(jar: CookieJar): Promise<PageResult['step']> {
  const page = await openAuthorize(system, jar, { clientId: app.client.id, redirectUri: APP_REDIRECT, state: 's' });
  return page.step;
}

function sessionRows(): Promise<number> {
  return countAllRows(system, 'sessions');
}

function logoutUrl(params: Array<[string, string]>): string {
  return `/oauth/logout?${new URLSearchParams(params).toString()}`;
}

/** The portal's own end-session request: its client_id and registered URL, and a state if given. */
function portalLogoutUrl(state?: string): string {
  const { clientId, signedOut } = portal();
  const params: Array<[string, string]> = [
    ['client_id', clientId],
    ['post_logout_redirect_uri', signedOut],
  ];
  if (state !== undefined) params.push(['state', state]);
  return logoutUrl(params);
}

describe('SO-01 the portal (first-party) and its exact post_logout_redirect_uri: signed out at once, then back', () => {
  it('SO-01 GET: the session ends (row deleted, cookie cleared), 303 to the URI with state, and the next authorize asks for the password', async () => {
    const jar = await signedInJar();
    expect(await nextAuthorize(jar)).toBe('consent');
    const stolenCookie = jar.header();
    const rowsBefore = await sessionRows();
    const { signedOut } = portal();
    const page = await fetchPage(system, jar, portalLogoutUrl('a&b=c d'));
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${signedOut}?state=a%26b%3Dc%20d`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.getSetCookie().join('\n')).toMatch(new RegExp(`^${COOKIE}=;.*Expires=Thu, 01 Jan 1970`, 'm'));
    expect(await sessionRows()).toBe(rowsBefore - 1);
    expect(await nextAuthorize(jar)).toBe('signin');
    // A copy of the old cookie is worth nothing: the session is gone on the server.
    const replay = new CookieJar();
    const home = await fetchPage(system, replay, '/', { headers: { cookie: stolenCookie! } });
    expect(home.html).not.toContain(user.email);
  });

  it('SO-01 POST (form-encoded) does the same; without state the URI comes back exactly as registered', async () => {
    const jar = await signedInJar();
    const { clientId, signedOut } = portal();
    const page = await fetchPage(system, jar, '/oauth/logout', {
      form: { client_id: clientId, post_logout_redirect_uri: signedOut },
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(signedOut);
    expect(await nextAuthorize(jar)).toBe('signin');
  });

  it('SO-01 with nobody signed in it still goes back to the registered URI', async () => {
    const page = await fetchPage(system, new CookieJar(), portalLogoutUrl());
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(portal().signedOut);
  });
});

// HD-08: sign-up is open, so anyone can register a client whose post-logout URL is their own
// site; a silent 303 to it made /oauth/logout an open redirect (and a sign-out) for any link or
// cross-site form. A third-party client's return now waits for the user's click on our page.
describe('HD-08 a third-party client and its registered URL: a confirmation page, never a silent redirect', () => {
  const appLogout = (state?: string) =>
    logoutUrl([
      ['client_id', app.client.id],
      ['post_logout_redirect_uri', APP_SIGNED_OUT],
      ...(state === undefined ? [] : ([['state', state]] as Array<[string, string]>)),
    ]);

  it('HD-08 GET signed in: a page naming the app and its host, no Location, still signed in; its Sign out button signs out and goes back with state', async () => {
    const jar = await signedInJar();
    const page = await fetchPage(system, jar, appLogout('xyz'));
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toContain('Sign out of Latchkey?');
    expect(page.html).toContain('Weather Widget');
    expect(page.html).toContain('client.example');
    expect(await nextAuthorize(jar)).toBe('consent');
    const form = findForm(page.html, '/oauth/logout')!;
    expect(form.fields.csrf_token).toBeTruthy();
    const confirmed = await fetchPage(system, jar, '/oauth/logout', { form: form.fields });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${APP_SIGNED_OUT}&state=xyz`);
    expect(await nextAuthorize(jar)).toBe('signin');
  });

  it('HD-08 nobody signed in: no redirect either; a page whose button continues to the registered URL', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, appLogout());
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.html).toContain('You are signed out');
    expect(page.html).toContain('Continue to client.example');
    const form = findForm(page.html, '/oauth/logout')!;
    const continued = await fetchPage(system, jar, '/oauth/logout', { form: form.fields });
    expect(continued.status).toBe(303);
    expect(continued.headers.get('location')).toBe(APP_SIGNED_OUT);
  });

  it('HD-08 a POST without the page’s CSRF token (a cross-site form) signs nobody out: 303 to the confirmation page on this server', async () => {
    const jar = await signedInJar();
    const page = await fetchPage(system, jar, '/oauth/logout', {
      form: { client_id: app.client.id, post_logout_redirect_uri: APP_SIGNED_OUT, state: 's' },
    });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(appLogout('s'));
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(await nextAuthorize(jar)).toBe('consent');
  });

  it('HD-08 a forged or another browser’s CSRF token: 403, nobody signed out, no redirect', async () => {
    const jar = await signedInJar();
    const other = await signedInJar();
    const theirs = findForm((await fetchPage(system, other, appLogout())).html, '/oauth/logout')!;
    for (const csrf_token of ['forged', theirs.fields.csrf_token!]) {
      const page = await fetchPage(system, jar, '/oauth/logout', { form: { ...theirs.fields, csrf_token } });
      expect(page.status).toBe(403);
      expect(page.location).toBeUndefined();
      expect(await nextAuthorize(jar)).toBe('consent');
    }
  });
});

describe('SO-02 anything else that names a return URL: an error page, no redirect, still signed in', () => {
  const cases: Array<[string, () => Array<[string, string]>]> = [
    [
      'an unknown client',
      () => [
        ['client_id', 'lkc_unknownunknownunknown0'],
        ['post_logout_redirect_uri', APP_SIGNED_OUT],
      ],
    ],
    ['a URI but no client_id', () => [['post_logout_redirect_uri', APP_SIGNED_OUT]]],
    [
      'a client that registered no post-logout URI',
      () => [
        ['client_id', plain.client.id],
        ['post_logout_redirect_uri', 'https://plain.example/cb'],
      ],
    ],
    [
      'another client’s URI',
      () => [
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', portal().signedOut],
      ],
    ],
    [
      'the URI with a trailing slash',
      () => [
        ['client_id', portal().clientId],
        ['post_logout_redirect_uri', `${portal().signedOut}/`],
      ],
    ],
    [
      'the URI in another case',
      () => [
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', APP_SIGNED_OUT.replace('signed-out', 'Signed-Out')],
      ],
    ],
    [
      'the URI with a query added',
      () => [
        ['client_id', portal().clientId],
        ['post_logout_redirect_uri', `${portal().signedOut}?next=https://evil.example`],
      ],
    ],
    [
      'the URI with its query changed',
      () => [
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', 'https://client.example/signed-out?from=evil'],
      ],
    ],
    [
      'an open redirect attempt',
      () => [
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', 'https://evil.example/'],
      ],
    ],
    [
      'client_id twice',
      () => [
        ['client_id', app.client.id],
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', APP_SIGNED_OUT],
      ],
    ],
    [
      'a state outside VSCHAR',
      () => [
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', APP_SIGNED_OUT],
        ['state', 'é\u0000'],
      ],
    ],
    [
      'a state over 4096 characters',
      () => [
        ['client_id', app.client.id],
        ['post_logout_redirect_uri', APP_SIGNED_OUT],
        ['state', 's'.repeat(4097)],
      ],
    ],
  ];
  it.each(cases)('SO-02 %s: 400 page, no Location, the session lives on', async (_name, params) => {
    const jar = await signedInJar();
    const page = await fetchPage(system, jar, logoutUrl(params()));
    expectErrorPage(page, 400);
    expect(page.html).toContain('This sign-out link is not valid');
    expect(page.html).not.toContain('evil.example');
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(await nextAuthorize(jar)).toBe('consent');
  });

  it('SO-02 a revoked client’s registered URI no longer counts', async () => {
    const owner = await makeUser(system, 'Rita Revoked');
    const doomed = await makeClient(system, owner, { postLogoutRedirectUri: 'https://doomed.example/bye' });
    await revokeClient(system.db, system.clock, doomed.client.id);
    const jar = await signedInJar();
    const page = await fetchPage(
      system,
      jar,
      logoutUrl([
        ['client_id', doomed.client.id],
        ['post_logout_redirect_uri', 'https://doomed.example/bye'],
      ]),
    );
    expectErrorPage(page, 400);
    expect(await nextAuthorize(jar)).toBe('consent');
  });
});

describe('SO-03 no return URL: only the user’s own confirmation signs out', () => {
  it('SO-03 signed in: a confirmation page (no redirect, nobody signed out); its Sign out button ends the session', async () => {
    const jar = await signedInJar();
    for (const path of ['/oauth/logout', logoutUrl([['client_id', app.client.id]])]) {
      const page = await fetchPage(system, jar, path);
      expect(page.status).toBe(200);
      expect(page.location).toBeUndefined();
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.html).toContain('Sign out of Latchkey?');
      expect(await nextAuthorize(jar)).toBe('consent');
    }
    const page = await fetchPage(system, jar, logoutUrl([['client_id', app.client.id]]));
    expect(page.html).toContain('Weather Widget');
    const form = findForm(page.html, '/signout')!;
    expect(form.fields.csrf_token).toBeTruthy();
    const signedOut = await fetchPage(system, jar, '/signout', { form: form.fields });
    expect(signedOut.status).toBe(303);
    expect(await nextAuthorize(jar)).toBe('signin');
  });

  it('SO-03 a cross-site form without the session’s CSRF token signs nobody out', async () => {
    const jar = await signedInJar();
    const forged = await fetchPage(system, jar, '/signout', { form: { csrf_token: 'forged' } });
    expect(forged.status).toBe(403);
    expect(await nextAuthorize(jar)).toBe('consent');
  });

  it('SO-03 nobody signed in: a page saying so, never a redirect', async () => {
    const page = await fetchPage(system, new CookieJar(), '/oauth/logout');
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.html).toContain('You are signed out');
  });
});

describe('SO-04 methods', () => {
  it('SO-04 HEAD (a link preview, a prefetch) never signs out: 405', async () => {
    const jar = await signedInJar();
    const page = await fetchPage(system, jar, portalLogoutUrl(), { method: 'HEAD' });
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET, POST');
    expect(await nextAuthorize(jar)).toBe('consent');
  });

  it('SO-04 PUT and DELETE: 405 page with Allow', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const page = await fetchPage(system, new CookieJar(), '/oauth/logout', { method });
      expect(page.status).toBe(405);
      expect(page.headers.get('allow')).toBe('GET, POST');
    }
  });
});

describe('SO-05 discovery', () => {
  it('SO-05 the RFC 8414 metadata advertises end_session_endpoint', async () => {
    const metadata = (await (await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.end_session_endpoint).toBe(`${system.authUrl}/oauth/logout`);
  });
});
