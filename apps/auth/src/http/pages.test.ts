import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@latchkey/core';
import {
  CookieJar,
  fetchPage,
  getConsent,
  openAuthorize,
  signIn,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { expectPageSecurityHeaders, REDIRECT_URI } from '../authorization/authorize.fixture.ts';

let system: TestSystem;
let user: Awaited<ReturnType<typeof makeUser>>;
let client: Client;
const pages: Record<string, PageResult> = {};

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system);
  ({ client } = await makeClient(system, user, { redirectUri: REDIRECT_URI }));
  const anonymous = new CookieJar();
  const signedIn = new CookieJar();
  await signIn(system, signedIn, user);
  pages.signin = await fetchPage(system, anonymous, '/signin');
  pages.signup = await fetchPage(system, anonymous, '/signup');
  pages['authorize sign-in'] = await openAuthorize(system, anonymous, {
    clientId: client.id,
    redirectUri: REDIRECT_URI,
  });
  pages.consent = await getConsent(system, signedIn, { clientId: client.id, redirectUri: REDIRECT_URI });
  pages['authorize error'] = await openAuthorize(system, anonymous, {
    clientId: client.id,
    redirectUri: 'https://evil.example/',
  });
  pages['home (signed out)'] = await fetchPage(system, anonymous, '/');
  pages['home (signed in)'] = await fetchPage(system, signedIn, '/');
  pages['not found'] = await fetchPage(system, anonymous, '/no/such/page');
});
afterAll(async () => {
  await system?.close();
});

/** Every src, href and action attribute value. */
function urlsIn(html: string): string[] {
  return [
    ...html.matchAll(/\s(?:src|href|action|formaction|srcset|poster|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

describe('headers and content of every HTML page', () => {
  const names = [
    'signin',
    'signup',
    'authorize sign-in',
    'consent',
    'authorize error',
    'home (signed out)',
    'home (signed in)',
    'not found',
  ];

  for (const name of names) {
    it(`CJ-01 CJ-02 RF-01 ${name}: frame-ancestors 'none', X-Frame-Options DENY, no-store, no-referrer, no third-party origin`, () => {
      const page = pages[name]!;
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const formActionOrigin =
        name === 'consent' || name === 'authorize sign-in' ? 'https://client.example' : undefined;
      expectPageSecurityHeaders(page, formActionOrigin);
      expect(page.headers.get('x-powered-by')).toBeNull();
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
    });

    it(`RF-01 ${name}: the HTML has no absolute src/href/action to another origin, no inline script or style`, () => {
      const { html } = pages[name]!;
      const urls = urlsIn(html);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        const resolved = new URL(url, system.authUrl);
        expect(resolved.origin, url).toBe(system.authUrl);
        expect(url).not.toMatch(/^\s*(javascript|data):/i);
      }
      expect(html).not.toMatch(/<script\b/i);
      expect(html).not.toMatch(/<style\b/i);
      expect(html).not.toMatch(/\sstyle\s*=/i);
      expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    });
  }

  it('the error and not-found pages carry their status and no Location', () => {
    expect(pages['authorize error']!.status).toBe(400);
    expect(pages['not found']!.status).toBe(404);
    for (const name of ['authorize error', 'not found']) expect(pages[name]!.headers.get('location')).toBeNull();
  });

  it('pages are accessible: one h1, main landmark labelled by it, lang, viewport', () => {
    for (const { html } of Object.values(pages)) {
      expect(html.match(/<h1\b/g)?.length).toBe(1);
      expect(html).toContain('<main class="card');
      expect(html).toContain('aria-labelledby="page-title"');
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('name="viewport"');
    }
  });
});

describe('assets and fallbacks', () => {
  it('GET /assets/latchkey.css: same-origin stylesheet with visible focus styles', async () => {
    const response = await fetch(`${system.authUrl}/assets/latchkey.css`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/css/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const css = await response.text();
    expect(css).toContain(':focus-visible');
    expect(css).toContain('prefers-color-scheme: dark');
    expect(css).not.toMatch(/url\(|@import/);
  });

  it("AX-09 the stylesheet never shows controls in another order than the DOM's (no order, reverse, float or grid placement)", async () => {
    const css = await (await fetch(`${system.authUrl}/assets/latchkey.css`)).text();
    expect(css).not.toMatch(
      /\border\s*:|row-reverse|column-reverse|wrap-reverse|\bfloat\s*:|grid-(?:row|column|area|template-areas)\s*:|direction\s*:\s*rtl/,
    );
  });

  it('GET /assets/favicon.svg', async () => {
    const response = await fetch(`${system.authUrl}/assets/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('unknown JSON-side paths get a JSON 404', async () => {
    const response = await fetch(`${system.authUrl}/.well-known/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', error_description: 'No such endpoint.' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('OPTIONS on pages: no CORS headers anywhere (CJ-06)', async () => {
    for (const path of [
      '/signin',
      '/signup',
      '/oauth/authorize/decision',
      '/',
      '/.well-known/oauth-authorization-server',
    ]) {
      const response = await fetch(`${system.authUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(
        [...response.headers.keys()].filter((h) => h.startsWith('access-control-')),
        path,
      ).toEqual([]);
    }
  });
});

describe('request log (RF-04)', () => {
  it('one line per request with method, path, status and duration; no query string, cookies or form values', async () => {
    const jar = new CookieJar();
    const marker = `marker${Date.now()}`;
    await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: marker });
    await signIn(system, jar, { email: user.email, password: user.password });
    const lines = system.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const authorizeLine = lines.findLast((l) => l.path === '/oauth/authorize');
    expect(authorizeLine).toMatchObject({ method: 'GET', path: '/oauth/authorize', status: 200, msg: 'request' });
    expect(typeof authorizeLine!.durationMs).toBe('number');
    const all = system.logs.join('\n');
    expect(all).not.toContain(marker);
    expect(all).not.toContain(user.password);
    expect(all).not.toContain(jar.get('lk_auth_sid')!);
    expect(all).not.toContain('csrf');
    expect(all).not.toContain(client.id);
  });
});
