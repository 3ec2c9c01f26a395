import { describe, expect, it } from 'vitest';
import { fetchPage, findForm } from '#test/support/browserless-flow.ts';
import { useUsers } from '#test/support/fixtures.ts';
import { reservedPort } from '#test/support/loopback.ts';
import { PortalBrowser, startSecondBff, usePortalSystem } from '#test/support/portal-system.ts';

// Issue 14 (docs/sign-out.md): Sign out in the portal ends the authorization server's sign-in
// too, so the next sign-in asks for the password instead of completing silently.
const system = usePortalSystem();
const { user } = useUsers(system, { user: 'Katherine Johnson' });

/** Where /bff/login leads this browser at the authorization server: its sign-in page, or straight back. */
async function nextSignIn(browser: PortalBrowser) {
  const start = await browser.startSignIn('/tokens');
  expect(start.status).toBe(302);
  return fetchPage({ authUrl: system.authUrl }, browser.authJar, start.location!);
}

describe('SO-06 the portal’s Sign out chains to the end-session endpoint', () => {
  it('SO-06 POST /bff/logout, then GET /bff/end-session → the authorization server signs the browser out → /signed-out; the next sign-in asks for the password', async () => {
    const browser = new PortalBrowser(system);
    expect((await browser.signIn(user)).status).toBe(302);
    expect((await browser.request('/bff/logout', { method: 'POST' })).status).toBe(204);

    const chained = await browser.navigate('/bff/end-session');
    expect(chained.status).toBe(302);
    expect(chained.headers.get('cache-control')).toBe('no-store');
    const endSession = new URL(chained.location!);
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${system.authUrl}/oauth/logout`);
    expect(Object.fromEntries(endSession.searchParams)).toEqual({
      client_id: system.config.portal.clientId,
      post_logout_redirect_uri: system.config.portal.postLogoutRedirectUri,
    });

    const back = await fetchPage({ authUrl: system.authUrl }, browser.authJar, endSession.href);
    expect(back.status).toBe(303);
    expect(back.location).toBe(system.config.portal.postLogoutRedirectUri);

    const next = await nextSignIn(browser);
    expect(next.step).toBe('signin');
  });

  it('SO-06 without the chain (the defect of issue 14) the authorization server’s session would sign the browser straight back in', async () => {
    // The control for the test above: the same steps minus GET /bff/end-session.
    const browser = new PortalBrowser(system);
    expect((await browser.signIn(user)).status).toBe(302);
    expect((await browser.request('/bff/logout', { method: 'POST' })).status).toBe(204);
    const next = await nextSignIn(browser);
    expect(next.step).toBe('redirect');
    expect(next.location).toMatch(/\/bff\/callback\?code=/);
  });

  it('SO-06 the authorization server unreachable: /bff/end-session still lands on /signed-out, never an error page', async () => {
    const bff = await startSecondBff(system, {
      config: { ...system.config, auth: { ...system.config.auth, url: `http://127.0.0.1:${await reservedPort()}` } },
    });
    try {
      const answer = await new PortalBrowser(system).navigate(`${bff.url}/bff/end-session`);
      expect(answer.status).toBe(302);
      expect(answer.location).toBe(system.config.portal.postLogoutRedirectUri);
    } finally {
      await bff.close();
    }
  });

  it('SO-06 POST /bff/end-session is refused (405); only the navigation exists', async () => {
    const answer = await new PortalBrowser(system).request('/bff/end-session', { method: 'POST', json: {} });
    expect(answer.status).toBe(405);
  });
});

describe('SO-09 Sign out on the authorization server’s own page signs the portal in that browser out too', () => {
  it('SO-09 the home page’s Sign out revokes the portal grant this browser’s session made: that portal session ends, another browser’s does not', async () => {
    const here = new PortalBrowser(system);
    const elsewhere = new PortalBrowser(system);
    expect((await here.signIn(user)).status).toBe(302);
    expect((await elsewhere.signIn(user)).status).toBe(302);
    expect((await here.request('/bff/api/clients')).status).toBe(200);

    const home = await fetchPage({ authUrl: system.authUrl }, here.authJar, '/');
    expect(home.html).toContain('You’re signed in');
    const form = findForm(home.html, '/signout')!;
    const signedOut = await fetchPage({ authUrl: system.authUrl }, here.authJar, '/signout', { form: form.fields });
    expect(signedOut.status).toBe(303);

    // The portal's tokens in this browser's session are dead: its next call ends the session.
    expect((await here.request('/bff/api/clients')).status).toBe(401);
    expect((await here.request('/bff/session')).status).toBe(401);
    expect((await nextSignIn(here)).step).toBe('signin');
    // The same user's portal in another browser is untouched.
    expect((await elsewhere.request('/bff/api/clients')).status).toBe(200);
  });
});
