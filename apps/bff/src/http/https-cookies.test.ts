import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  setCookieLine,
  startPortalSystem,
  startSecondBff,
  type PortalSystem,
} from '#test/support/portal-system.ts';

// The portal's public URL is https, served through a TLS-terminating proxy on loopback that
// says so with X-Forwarded-Proto; the BFF itself listens on plain http.
const PUBLIC_URL = 'https://portal.example.test';
const BEHIND_TLS = { 'x-forwarded-proto': 'https' };

let system: PortalSystem;
let user: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  system = await startPortalSystem({ PORTAL_URL: PUBLIC_URL, TRUST_PROXY: 'loopback' });
  user = await makeUser(system, 'Hedy Lamarr');
});
afterAll(() => system?.close());

describe('cookies over https (BF-CK-01, BF-CK-02)', () => {
  it('BF-CK-01 every cookie is __Host-, Secure, HttpOnly, Path=/, no Domain; Strict session, Lax short-lived transaction', async () => {
    const browser = new PortalBrowser(system, { defaultHeaders: BEHIND_TLS });
    const start = await browser.startSignIn('/tokens');
    expect(start.status).toBe(302);
    expect(new URL(start.location!).searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/bff/callback`);
    expect(setCookieLine(start.headers, '__Host-lk_portal_tx')).toMatch(
      /^__Host-lk_portal_tx=v1\.[A-Za-z0-9_-]+; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(setCookieLine(start.headers, 'lk_portal_tx')).toBeUndefined();
    expect(start.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');

    const callback = new URL(await browser.authorize(start.location!, user));
    expect(callback.origin).toBe(PUBLIC_URL);
    const done = await browser.navigate(`${callback.pathname}${callback.search}`);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/tokens');
    const session = setCookieLine(done.headers, '__Host-lk_portal_sid')!;
    expect(session).toMatch(
      /^__Host-lk_portal_sid=s%3A[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect(setCookieLine(done.headers, '__Host-lk_portal_tx')).toMatch(
      /^__Host-lk_portal_tx=; Max-Age=0; Path=\/; .*Secure/,
    );
    for (const line of [...start.headers.getSetCookie(), ...done.headers.getSetCookie()]) {
      expect(line).not.toMatch(/domain=/i);
    }

    expect((await browser.request('/bff/session')).body).toMatchObject({ user: { id: user.id } });
    expect((await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } })).status).toBe(200);

    const out = await browser.request('/bff/logout', { method: 'POST' });
    expect(out.status).toBe(204);
    expect(setCookieLine(out.headers, '__Host-lk_portal_sid')).toMatch(
      /^__Host-lk_portal_sid=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('the Origin check uses the public origin: a write from the loopback address the BFF listens on is refused', async () => {
    const browser = new PortalBrowser(system, { defaultHeaders: BEHIND_TLS });
    await browser.signIn(user);
    const answer = await browser.request('/bff/graphql', {
      json: { query: '{ profile { name } }' },
      headers: { origin: system.portalUrl },
    });
    expect(answer.status).toBe(403);
  });

  it('BF-CK-02 without a trusted proxy the request is not secure, and express-session silently sets no Secure cookie', async () => {
    const untrusted = await startSecondBff(system, { config: { ...system.config, trustProxy: undefined } });
    try {
      const browser = new PortalBrowser(system, { defaultHeaders: BEHIND_TLS });
      const start = await browser.startSignIn();
      const callback = new URL(await browser.authorize(start.location!, user));
      const done = await browser.navigate(`${untrusted.url}${callback.pathname}${callback.search}`);
      expect(done.status).toBe(302);
      expect(setCookieLine(done.headers, '__Host-lk_portal_sid')).toBeUndefined();
      // With TRUST_PROXY set (the main BFF), the same flow does get its cookie: see the test above.
    } finally {
      await untrusted.close();
    }
  });
});
