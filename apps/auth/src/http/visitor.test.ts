import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  CookieJar,
  fetchPage,
  findForm,
  followRedirect,
  openAuthorize,
  submitDecision,
  submitSignIn,
} from '#test/support/browserless-flow.ts';
import { countAllRows, makeClient, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { alterChar } from '#test/support/tamper.ts';
import { countCodes, expectErrorPage, REDIRECT_URI } from '../authorization/authorize.fixture.ts';
import { PENDING_TTL_MS } from '../authorization/pending-authorization.ts';

// HD-06 (issue 15): a browser that is not signed in costs no storage. The sign-in, sign-up and
// authorization pages bind their forms to the signed visitor cookie and carry the pending
// request sealed; a session row appears only when someone signs in.
let system: TestSystem;
let user: Awaited<ReturnType<typeof makeUser>>;
let client: Awaited<ReturnType<typeof makeClient>>['client'];

beforeAll(async () => {
  system = await startSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
  user = await makeUser(system, 'Vera Visitor');
  ({ client } = await makeClient(system, user, { redirectUri: REDIRECT_URI, name: 'Visitor App' }));
});
afterAll(async () => {
  await system?.close();
});

function sessionRows(): Promise<number> {
  return countAllRows(system, 'sessions');
}

function visitorPages(): string[] {
  const authorize = authorizeUrl(system, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'hd06' });
  return ['/signin', '/signup', authorize];
}

describe('HD-06 no storage for a visitor', () => {
  it('300 cookie-less GETs of /signin, /signup and /oauth/authorize add no session row and set no session cookie', async () => {
    const before = await sessionRows();
    const paths = visitorPages();
    for (let batch = 0; batch < 10; batch += 1) {
      const pages = await Promise.all(
        Array.from({ length: 30 }, (_, i) => fetchPage(system, new CookieJar(), paths[i % paths.length]!)),
      );
      for (const page of pages) {
        expect(page.status).toBe(200);
        expect(page.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual(['lk_auth_form']);
      }
    }
    expect(await sessionRows()).toBe(before);
  });

  it('the visitor flow still works: authorize, sign in, consent, code; one session row, added by the sign-in', async () => {
    const jar = new CookieJar();
    const before = await sessionRows();
    const signInPage = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'flow' });
    expect(signInPage.step).toBe('signin');
    expect(await sessionRows()).toBe(before);
    const signedIn = await submitSignIn(system, jar, signInPage, user);
    expect(signedIn.status).toBe(303);
    expect(await sessionRows()).toBe(before + 1);
    const consent = await followRedirect(system, jar, signedIn);
    expect(consent.step).toBe('consent');
    const done = await submitDecision(system, jar, consent, 'allow');
    const location = new URL(done.location!);
    expect(location.searchParams.get('state')).toBe('flow');
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('a sealed request altered by one character, or shown in another browser, is not honoured; no code', async () => {
    const jar = new CookieJar();
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'seal' });
    const request = findForm(page.html, '/signin')!.fields.request!;
    const codes = await countCodes(system);

    // Altered: the sign-in page no longer names the application and its form carries no request.
    const altered = await fetchPage(system, jar, `/signin?request=${alterChar(request, 20)}`);
    expect(altered.html).not.toContain('Visitor App');
    expect(findForm(altered.html, '/signin')!.fields.request).toBeUndefined();

    // Another browser (its own visitor cookie): the same.
    const other = new CookieJar();
    await fetchPage(system, other, '/signin');
    const elsewhere = await fetchPage(system, other, `/signin?request=${request}`);
    expect(elsewhere.html).not.toContain('Visitor App');

    // Signing in elsewhere with the request id leads nowhere: the continue link is refused.
    const signedIn = await submitSignIn(system, other, elsewhere, user, { request });
    expect(signedIn.status).toBe(303);
    expectErrorPage(await followRedirect(system, other, signedIn), 400);
    expect(await countCodes(system)).toBe(codes);

    // The genuine one, in its own browser, still names the application.
    const genuine = await fetchPage(system, jar, `/signin?request=${request}`);
    expect(genuine.html).toContain('Visitor App');
  });

  it('after sign-out a request sealed before the sign-in does not open again for the next person (the visitor cookie goes too)', async () => {
    const jar = new CookieJar();
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'shared' });
    const request = findForm(page.html, '/signin')!.fields.request!;
    expect((await submitSignIn(system, jar, page, user)).status).toBe(303);
    const home = await fetchPage(system, jar, '/');
    const signOut = await fetchPage(system, jar, '/signout', { form: findForm(home.html, '/signout')!.fields });
    expect(signOut.status).toBe(303);
    expect(signOut.headers.getSetCookie().some((c) => /^lk_auth_form=;/.test(c))).toBe(true);
    expect(jar.get('lk_auth_form')).toBeUndefined();
    const next = await fetchPage(system, jar, `/signin?request=${request}`);
    expect(next.html).not.toContain('Visitor App');
    expect(findForm(next.html, '/signin')!.fields.request).toBeUndefined();
  });

  it('a sealed request expires after PENDING_TTL_MS like a stored one', async () => {
    const jar = new CookieJar();
    const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'ttl' });
    const request = findForm(page.html, '/signin')!.fields.request!;
    system.clock.advance(PENDING_TTL_MS);
    const later = await fetchPage(system, jar, `/signin?request=${request}`);
    expect(later.html).not.toContain('Visitor App');
  });

  it('CSRF: the sign-in form needs its own browser\'s token; another browser\'s, an altered one or none is 403', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, '/signin');
    const token = findForm(page.html, '/signin')!.fields.csrf_token!;
    const other = new CookieJar();
    const otherToken = findForm((await fetchPage(system, other, '/signin')).html, '/signin')!.fields.csrf_token!;
    expect(otherToken).not.toBe(token);

    expectErrorPage(await submitSignIn(system, jar, page, user, { csrf_token: otherToken }), 403);
    expectErrorPage(await submitSignIn(system, jar, page, user, { csrf_token: alterChar(token, 5) }), 403);
    expectErrorPage(await submitSignIn(system, jar, page, user, { csrf_token: undefined }), 403);
    // The right token without its cookie (a cookie-less cross-site post) is 403 too.
    expectErrorPage(await submitSignIn(system, new CookieJar(), page, user), 403);
    const ok = await submitSignIn(system, jar, page, user);
    expect(ok.status).toBe(303);
  });
});
