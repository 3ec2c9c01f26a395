import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CookieJar,
  fetchPage,
  findButtons,
  findForm,
  findLabelledInput,
  findLinks,
  signIn,
  submitSignIn,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { countAllRows, makeUser, OFF_SITE_RETURN_PATHS, useUsers } from '#test/support/fixtures.ts';
import { startSystem, useSystem, type TestSystem } from '#test/support/system.ts';
import { expectErrorPage, expectPageSecurityHeaders } from '../../authorization/authorize.fixture.ts';

// Failed sign-ins below would otherwise reach the default limit; rate-limit.test.ts covers it.
const system = useSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
const { user } = useUsers(system, { user: 'Ada Lovelace' });
const COOKIE = 'lk_auth_sid';
const VISITOR_COOKIE = 'lk_auth_form';

function sessionRows(): Promise<number> {
  return countAllRows(system, 'sessions');
}

async function whoAmI(jar: CookieJar): Promise<string | undefined> {
  const home = await fetchPage(system, jar, '/');
  return /class="account-email">([^<]+)</.exec(home.html)?.[1];
}

describe('sign-in page', () => {
  it('has Email and Password fields tied to labels, a Sign in button and a Create account link', async () => {
    const page = await fetchPage(system, new CookieJar(), '/signin');
    expect(page.status).toBe(200);
    expect(findLabelledInput(page.html, 'Email')).toMatchObject({
      name: 'email',
      type: 'email',
      autocomplete: 'username',
    });
    expect(findLabelledInput(page.html, 'Password')).toMatchObject({
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
    });
    expect(findButtons(page.html)).toEqual([
      { text: 'Sign in', attributes: expect.objectContaining({ type: 'submit' }) },
    ]);
    expect(findLinks(page.html)).toContainEqual({ text: 'Create account', href: '/signup' });
    expect(page.html).toContain('<html lang="en">');
    expectPageSecurityHeaders(page);
  });

  it('DD-9 the session cookie is lk_auth_sid: HttpOnly, SameSite=Lax, Path=/, no Domain; set by signing in', async () => {
    const answer = await signIn(system, new CookieJar(), user);
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))!;
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('HD-06 the page sets only the visitor cookie lk_auth_form (HttpOnly, SameSite=Lax, Path=/, no Domain) and stores nothing', async () => {
    const before = await sessionRows();
    const page = await fetchPage(system, new CookieJar(), '/signin');
    const cookies = page.headers.getSetCookie();
    expect(cookies.map((c) => c.split('=')[0])).toEqual([VISITOR_COOKIE]);
    expect(cookies[0]).toMatch(/^lk_auth_form=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await sessionRows()).toBe(before);
  });
});

describe('sign-in', () => {
  it('success: 303 to /, the session id is regenerated (fixation), the home page names the user', async () => {
    // An attacker signs in to an account of their own and plants that session id in the victim's browser.
    const mallory = await makeUser(system, 'Mallory');
    const attacker = new CookieJar();
    await signIn(system, attacker, mallory);
    const planted = attacker.get(COOKIE)!;
    expect(planted).toBeDefined();
    const jar = new CookieJar();
    jar.set(COOKIE, planted);
    const page = await fetchPage(system, jar, '/signin?request=x');
    const answer = await submitSignIn(system, jar, page, user);
    expect(answer.status).toBe(303);
    const postLogin = jar.get(COOKIE)!;
    expect(postLogin).not.toBe(planted);
    expect(await whoAmI(jar)).toBe(user.email);
    // The planted id is worth nothing now: the sign-in replaced it, so it names nobody.
    expect(await whoAmI(attacker)).toBeUndefined();
  });

  it('email is matched case-insensitively and trimmed', async () => {
    const jar = new CookieJar();
    const answer = await signIn(system, jar, { email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(answer.status).toBe(303);
    expect(await whoAmI(jar)).toBe(user.email);
  });

  it('no user enumeration: unknown email and wrong password give the same status and message', async () => {
    const unknown = await signIn(system, new CookieJar(), { email: 'nobody@example.test', password: user.password });
    const wrong = await signIn(system, new CookieJar(), { email: user.email, password: 'wrong-password' });
    for (const answer of [unknown, wrong]) {
      expect(answer.status).toBe(422);
      expect(answer.location).toBeUndefined();
      expect(answer.html).toContain('<div class="alert" role="alert">Incorrect email or password.</div>');
      expectPageSecurityHeaders(answer);
    }
    const strip = (p: PageResult) => p.html.replace(/value="[^"]*"/g, '');
    expect(strip(unknown)).toBe(strip(wrong));
  });

  it('a failed sign-in keeps the email, never the password, and signs nobody in', async () => {
    const jar = new CookieJar();
    const answer = await signIn(system, jar, { email: user.email, password: 'wrong-password' });
    expect(answer.html).toContain(`value="${user.email}"`);
    expect(answer.html).not.toContain('wrong-password');
    expect(await whoAmI(jar)).toBeUndefined();
  });

  it('a malformed form (repeated or missing fields) is a failed sign-in, never 500', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, '/signin');
    const repeated = await submitSignIn(system, jar, page, user, { email: [user.email, user.email] });
    expect(repeated.status).toBe(422);
    const missing = await submitSignIn(system, jar, page, user, { password: undefined });
    expect(missing.status).toBe(422);
    expect(await whoAmI(jar)).toBeUndefined();
  });

  it('TK-03 a form that is not well-formed url-encoding (%ZZ, bytes that are not UTF-8) is a 400 page, never decoded as something else', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, '/signin');
    const csrf = encodeURIComponent(findForm(page.html, '/signin')!.fields.csrf_token as string);
    const email = encodeURIComponent(user.email);
    const password = encodeURIComponent(user.password);
    for (const body of [
      Buffer.from(`email=${email}&password=${password}%ZZ&csrf_token=${csrf}`),
      Buffer.concat([
        Buffer.from(`email=${email}&password=${password}`),
        Buffer.from([0xff]),
        Buffer.from(`&csrf_token=${csrf}`),
      ]),
    ]) {
      const response = await fetch(`${system.authUrl}/signin`, {
        method: 'POST',
        headers: { accept: 'text/html', cookie: jar.header()!, 'content-type': 'application/x-www-form-urlencoded' },
        body: new Uint8Array(body),
        redirect: 'manual',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).not.toContain(user.password);
    }
    expect(await whoAmI(jar)).toBeUndefined();
  });

  it('CSRF: no token, or the token of another session: 403 and nobody signed in', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, '/signin');
    const missing = await submitSignIn(system, jar, page, user, { csrf_token: undefined });
    expectErrorPage(missing, 403);
    const otherPage = await fetchPage(system, new CookieJar(), '/signin');
    const foreign = await submitSignIn(system, jar, page, user, {
      csrf_token: findForm(otherPage.html, '/signin')!.fields.csrf_token,
    });
    expectErrorPage(foreign, 403);
    expect(await whoAmI(jar)).toBeUndefined();
  });

  it('CSRF: a post with no session cookie at all is 403', async () => {
    const page = await fetchPage(system, new CookieJar(), '/signin');
    const answer = await submitSignIn(system, new CookieJar(), page, user);
    expectErrorPage(answer, 403);
  });

  it('GET /signin while signed in goes to / (or the safe return_to)', async () => {
    const jar = new CookieJar();
    await signIn(system, jar, user);
    const page = await fetchPage(system, jar, '/signin?return_to=%2Faccount');
    expect(page.status).toBe(303);
    expect(page.location).toBe(`${system.authUrl}/account`);
  });
});

describe('OR-01 return_to after sign-in', () => {
  for (const evil of OFF_SITE_RETURN_PATHS) {
    it(`OR-01 return_to=${evil}: after sign-in, redirect to / only`, async () => {
      const jar = new CookieJar();
      const page = await fetchPage(system, jar, `/signin?return_to=${encodeURIComponent(evil)}`);
      expect(page.html).not.toContain('evil.example');
      expect(findForm(page.html, '/signin')!.fields.return_to).toBeUndefined();
      // Even when posted directly.
      const answer = await submitSignIn(system, jar, page, user, { return_to: evil });
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(`${system.authUrl}/`);
      expect(answer.headers.get('location')).toBe('/');
    });
  }

  it('OR-01 a same-origin relative path is kept', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, '/signin?return_to=%2Fsettings%3Ftab%3D1');
    expect(findForm(page.html, '/signin')!.fields.return_to).toBe('/settings?tab=1');
    const answer = await submitSignIn(system, jar, page, user);
    expect(answer.headers.get('location')).toBe('/settings?tab=1');
  });
});

describe('sign-out', () => {
  it('POST /signout with the CSRF token: 303 to /signin, cookie cleared, session row deleted', async () => {
    const jar = new CookieJar();
    await signIn(system, jar, user);
    const cookie = jar.get(COOKIE)!;
    const home = await fetchPage(system, jar, '/');
    const rowsBefore = await sessionRows();
    const answer = await fetchPage(system, jar, '/signout', { form: findForm(home.html, '/signout')!.fields });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${system.authUrl}/signin`);
    expect(
      answer.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`) && /Expires=Thu, 01 Jan 1970/.test(c)),
    ).toBe(true);
    expect(await sessionRows()).toBe(rowsBefore - 1);
    const replay = new CookieJar();
    replay.set(COOKIE, cookie);
    expect(await whoAmI(replay)).toBeUndefined();
  });

  it('POST /signout without the CSRF token: 403 and still signed in (logout CSRF)', async () => {
    const jar = new CookieJar();
    await signIn(system, jar, user);
    const answer = await fetchPage(system, jar, '/signout', { form: {} });
    expectErrorPage(answer, 403);
    expect(await whoAmI(jar)).toBe(user.email);
  });

  it('GET /signout is not a way to sign out: 404, still signed in', async () => {
    const jar = new CookieJar();
    await signIn(system, jar, user);
    const answer = await fetchPage(system, jar, '/signout');
    expect(answer.status).toBe(404);
    expect(await whoAmI(jar)).toBe(user.email);
  });
});

describe('DD-9 cookie over https (behind a TLS-terminating proxy)', () => {
  let https: TestSystem;
  let origin: string;

  beforeAll(async () => {
    https = await startSystem({ AUTH_URL: 'https://auth.example.test', TRUST_PROXY: 'loopback' });
    origin = `http://127.0.0.1:${https.config.auth.port}`;
  });
  afterAll(async () => {
    await https?.close();
  });

  it('the cookies are __Host-lk_auth_form and __Host-lk_auth_sid: Secure, HttpOnly, SameSite=Lax, Path=/, no Domain; HSTS is sent', async () => {
    const proxied = { 'x-forwarded-proto': 'https' };
    const page = await fetch(`${origin}/signin`, { headers: proxied });
    expect(page.status).toBe(200);
    expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
    const visitor = page.headers.getSetCookie().find((c) => c.startsWith('__Host-lk_auth_form='))!;
    const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1]!;
    const owner = await makeUser(https, 'Hattie Https');
    const answer = await fetch(`${origin}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...proxied, cookie: visitor.split(';')[0]!, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrfToken, email: owner.email, password: owner.password }).toString(),
    });
    expect(answer.status).toBe(303);
    const session = answer.headers.getSetCookie().find((c) => c.startsWith('__Host-lk_auth_sid='));
    for (const cookie of [visitor, session]) {
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    }
  });

  it('over plain http (no proxy header) the Secure cookies are withheld rather than sent insecurely', async () => {
    const response = await fetch(`${origin}/signin`);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});
