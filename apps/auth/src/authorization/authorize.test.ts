import { describe, expect, it } from 'vitest';
import { revokeClient } from '@latchkey/core';
import {
  authorizeUrl,
  authorizeViaPages,
  CookieJar,
  fetchPage,
  findForm,
  followRedirect,
  openAuthorize,
  submitDecision,
  submitSignIn,
} from '#test/support/browserless-flow.ts';
import { makeClient } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  countCodes,
  expectErrorPage,
  expectErrorRedirect,
  expectPageSecurityHeaders,
  REDIRECT_URI,
  useConsentedBrowser,
} from './authorize.fixture.ts';

const system = useSystem();
/** `jar` is signed in and consented to `client`: any request that passes every check gets a code at once. */
const { user, client, jar } = useConsentedBrowser(system);

const enc = encodeURIComponent;

/** GET /oauth/authorize with a raw query string, so malformed and duplicated parameters get through unchanged. */
function rawAuthorize(query: string, cookies = jar) {
  return fetchPage(system, cookies, `/oauth/authorize?${query}`);
}

describe('GET /oauth/authorize: client and redirect URI problems are pages', () => {
  async function expectPage(query: string, mentions: string) {
    const before = await countCodes(system);
    const page = await rawAuthorize(query);
    expectErrorPage(page, 400);
    expect(page.html).toContain(mentions);
    expect(await countCodes(system)).toBe(before);
  }

  it('AZ-01 no client_id: 400 page, no Location', async () => {
    await expectPage(`response_type=code&redirect_uri=${enc(REDIRECT_URI)}&state=s`, 'client_id');
  });

  it('AZ-02 unknown client_id, and a homoglyph or case variant of a real one: 400 page', async () => {
    await expectPage(`client_id=lkc_nope&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`, 'client_id');
    const cyrillic = client.id.replace('k', '\u043a');
    await expectPage(`client_id=${enc(cyrillic)}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`, 'client_id');
    await expectPage(
      `client_id=${enc(client.id.toUpperCase())}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`,
      'client_id',
    );
    await expectPage(`client_id=${'x'.repeat(5000)}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`, 'client_id');
  });

  it('AZ-03 revoked client: 400 page, never a redirect to its URI (RV-03)', async () => {
    const { client: doomed } = await makeClient(system, user, { redirectUri: REDIRECT_URI });
    await authorizeViaPages(system, { user, clientId: doomed.id, redirectUri: REDIRECT_URI, jar });
    await revokeClient(system.db, system.clock, doomed.id);
    await expectPage(
      `client_id=${doomed.id}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}&state=s`,
      'no longer active',
    );
    // Even with another error that would otherwise be redirected.
    await expectPage(`client_id=${doomed.id}&response_type=token&redirect_uri=${enc(REDIRECT_URI)}`, 'client_id');
  });

  it('AZ-04 duplicate client_id (a=1&a=2): 400 page; the array never reaches the database', async () => {
    await expectPage(
      `client_id=${client.id}&client_id=other&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`,
      'client_id',
    );
    await expectPage(
      `client_id=${client.id}&client_id=${client.id}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`,
      'more than once',
    );
  });

  it('AZ-05 missing redirect_uri (required by the documentation): 400 page', async () => {
    await expectPage(`client_id=${client.id}&response_type=code&state=s`, 'redirect_uri');
    await expectPage(`client_id=${client.id}&response_type=code&redirect_uri=&state=s`, 'redirect_uri');
  });

  it('AZ-06 redirect_uri with an extra query or a fragment: 400 page', async () => {
    await expectPage(
      `client_id=${client.id}&response_type=code&redirect_uri=${enc(`${REDIRECT_URI}?x=1`)}`,
      'redirect_uri',
    );
    await expectPage(
      `client_id=${client.id}&response_type=code&redirect_uri=${enc(`${REDIRECT_URI}#f`)}`,
      'redirect_uri',
    );
  });

  it('AZ-07 duplicate redirect_uri, even twice the registered value: 400 page', async () => {
    await expectPage(
      `client_id=${client.id}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}&redirect_uri=${enc(REDIRECT_URI)}`,
      'redirect_uri parameter was sent more than once',
    );
  });
});

describe('after the redirect URI is verified, errors are redirected (RFC 6749 §4.1.2.1)', () => {
  const base = () => `client_id=${client.id}&redirect_uri=${enc(REDIRECT_URI)}`;

  async function expectRedirectError(query: string, error: string, state?: string) {
    const before = await countCodes(system);
    const page = await rawAuthorize(query);
    const response = expectErrorRedirect(system, page, REDIRECT_URI, error, state);
    expect(page.status).toBe(303);
    expect(await countCodes(system)).toBe(before);
    return response;
  }

  it('AZ-10 missing response_type: invalid_request with state', async () => {
    await expectRedirectError(`${base()}&state=az10`, 'invalid_request', 'az10');
  });

  it('AZ-11 response_type token, "code id_token", CODE, "code code": unsupported_response_type; "" is invalid_request', async () => {
    for (const responseType of ['token', 'code id_token', 'CODE', 'code code', 'id_token', ' code']) {
      await expectRedirectError(
        `${base()}&response_type=${enc(responseType)}&state=az11`,
        'unsupported_response_type',
        'az11',
      );
    }
    await expectRedirectError(`${base()}&response_type=&state=az11`, 'invalid_request', 'az11');
  });

  it('AZ-12 (P-02) duplicate response_type / prompt / code_challenge: invalid_request with state', async () => {
    await expectRedirectError(`${base()}&response_type=code&response_type=code&state=d`, 'invalid_request', 'd');
    await expectRedirectError(`${base()}&response_type=code&prompt=login&prompt=login&state=d`, 'invalid_request', 'd');
    await expectRedirectError(
      `${base()}&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&state=d`,
      'invalid_request',
      'd',
    );
  });

  it('AZ-12 (P-02) duplicate state: invalid_request and state omitted (node-oidc-provider behaviour)', async () => {
    const response = await expectRedirectError(
      `${base()}&response_type=code&state=a&state=b`,
      'invalid_request',
      undefined,
    );
    expect(response.location).not.toContain('state=');
  });

  it('AZ-12 (P-02) an empty duplicate still counts as a duplicate', async () => {
    await expectRedirectError(`${base()}&response_type=code&response_type=&state=e`, 'invalid_request', 'e');
  });

  it('AZ-13 OI-16 prompt=foo, select_account, "none login", "login login": invalid_request', async () => {
    for (const prompt of ['foo', 'select_account', 'none login', 'login login', 'LOGIN']) {
      await expectRedirectError(`${base()}&response_type=code&prompt=${enc(prompt)}&state=p`, 'invalid_request', 'p');
    }
  });

  it('AZ-14 1 KB state is echoed exactly; 8 KB is refused with invalid_request (limit 4,096)', async () => {
    const kb = 'k'.repeat(1024);
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: kb,
      jar,
    });
    expect(result.state).toBe(kb);
    await expectRedirectError(`${base()}&response_type=code&state=${'k'.repeat(8192)}`, 'invalid_request', undefined);
  });

  it('AZ-15 Unicode, NUL and malformed %ZZ in any parameter: never 500', async () => {
    const values = ['%ZZ', '%E2%80%AE', '%00', '%F0%9F%98%80', '%', '%C3%28'];
    for (const value of values) {
      const pages = await Promise.all([
        rawAuthorize(`client_id=${value}&response_type=code&redirect_uri=${enc(REDIRECT_URI)}`),
        rawAuthorize(`client_id=${client.id}&response_type=code&redirect_uri=${value}`),
        rawAuthorize(`${base()}&response_type=${value}&state=u`),
        rawAuthorize(`${base()}&response_type=code&prompt=${value}&state=u`),
        rawAuthorize(`${base()}&response_type=code&code_challenge=${value}&code_challenge_method=S256&state=u`),
        rawAuthorize(
          `${base()}&response_type=code&code_challenge_method=${value}&code_challenge=${'a'.repeat(43)}&state=u`,
        ),
      ]);
      expect(pages.map((p) => p.status)).toEqual([400, 400, 303, 303, 303, 303]);
      for (const page of pages.slice(2))
        expect(page.location).toMatch(/[?&]error=(invalid_request|unsupported_response_type)&/);
    }
  });

  // `scope` is read now (SC-02 refuses scope=openid, which this request once carried as unknown).
  it('AZ-18 (P-01) unknown parameters are ignored: normal success', async () => {
    const page = await rawAuthorize(`${base()}&response_type=code&state=p01&foo=bar&ui_locales=fr&nonce=n&foo=baz`);
    expect(page.status).toBe(303);
    const location = new URL(page.location!);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('p01');
    expect(location.searchParams.has('foo')).toBe(false);
  });

  it('RFC 9207 every authorization response carries iss = the issuer; error_description is ASCII-safe (AC-10)', async () => {
    const response = await expectRedirectError(
      `${base()}&response_type=token&state=i`,
      'unsupported_response_type',
      'i',
    );
    expect(response.iss).toBe(system.authUrl);
    expect(response.errorDescription).toBe('Only response_type=code is supported.');
  });
});

describe('methods and CORS', () => {
  it('AZ-16 POST /oauth/authorize: 405 with Allow: GET, no code', async () => {
    const before = await countCodes(system);
    const page = await fetchPage(system, jar, '/oauth/authorize', {
      form: { client_id: client.id, response_type: 'code', redirect_uri: REDIRECT_URI },
    });
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET');
    expect(page.location).toBeUndefined();
    expectPageSecurityHeaders(page);
    expect(await countCodes(system)).toBe(before);
  });

  it('HEAD /oauth/authorize never mints a code, even for a silently approved user', async () => {
    const approved = await authorizeViaPages(system, { clientId: client.id, redirectUri: REDIRECT_URI, user });
    expect(approved.code).toBeDefined();
    const before = await countCodes(system);
    const response = await fetch(authorizeUrl(system, { clientId: client.id, redirectUri: REDIRECT_URI }), {
      method: 'HEAD',
      headers: { cookie: approved.jar.header() ?? '' },
      redirect: 'manual',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.headers.get('location')).toBeNull();
    expect(await countCodes(system)).toBe(before);
  });

  it('AZ-17 (CJ-06) OPTIONS with Origin: no Access-Control-* headers', async () => {
    const response = await fetch(authorizeUrl(system, { clientId: client.id, redirectUri: REDIRECT_URI }), {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(405);
    expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('AZ-17 (CJ-06) a cross-origin GET gets no Access-Control-Allow-Origin either', async () => {
    const response = await fetch(authorizeUrl(system, { clientId: client.id, redirectUri: REDIRECT_URI }), {
      headers: { origin: 'https://evil.example' },
      redirect: 'manual',
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('the user is authenticated first', () => {
  it('OR-04 valid client, not signed in, no prompt: the sign-in page (200), not a redirect to the client', async () => {
    const before = await countCodes(system);
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 'or04',
    });
    expect(page.status).toBe(200);
    expect(page.step).toBe('signin');
    expect(page.location).toBeUndefined();
    expectPageSecurityHeaders(page, 'https://client.example');
    expect(await countCodes(system)).toBe(before);
  });

  it('AZ-20 after sign-in the same authorization request resumes from the server-side session, not from a return_to', async () => {
    const browser = new CookieJar();
    const signInPage = await openAuthorize(system, browser, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 'az20',
    });
    expect(signInPage.status).toBe(200);
    expect(signInPage.html).toContain(client.name);
    const form = findForm(signInPage.html, '/signin')!;
    expect(Object.keys(form.fields).sort()).toEqual(['csrf_token', 'request']);
    // HD-06: nothing is stored for a visitor; the request travels sealed (AES-GCM), unreadable.
    expect(form.fields.request).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(Buffer.from(form.fields.request!.slice(3), 'base64url').toString('latin1')).not.toContain(client.id);

    const afterSignIn = await submitSignIn(system, browser, signInPage, user);
    expect(afterSignIn.status).toBe(303);
    expect(afterSignIn.location).toBe(`${system.authUrl}/oauth/authorize/continue?request=${form.fields.request}`);

    // The user consented before (beforeAll): the request completes with its original state.
    const done = await followRedirect(system, browser, afterSignIn);
    expect(done.status).toBe(303);
    const location = new URL(done.location!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('az20');
    expect(location.searchParams.get('code')).toBeTruthy();

    // The pending request was used up.
    const again = await followRedirect(system, browser, afterSignIn);
    expectErrorPage(again, 400);
  });

  it('AZ-20 a continue link for a request of another browser session: 400 page, no code', async () => {
    const victim = new CookieJar();
    const page = await openAuthorize(system, victim, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'v' });
    const requestId = findForm(page.html, '/signin')!.fields.request!;
    const before = await countCodes(system);
    const attempt = await fetchPage(system, jar, `/oauth/authorize/continue?request=${requestId}`);
    expectErrorPage(attempt, 400);
    expect(await countCodes(system)).toBe(before);
  });

  it('AZ-21 the user denies: access_denied with state, to the registered URI only', async () => {
    const { client: fresh } = await makeClient(system, user, { redirectUri: REDIRECT_URI });
    const consent = await openAuthorize(system, jar, { clientId: fresh.id, redirectUri: REDIRECT_URI, state: 'az21' });
    expect(consent.step).toBe('consent');
    const before = await countCodes(system);
    const denied = await submitDecision(system, jar, consent, 'deny');
    expectErrorRedirect(system, denied, REDIRECT_URI, 'access_denied', 'az21');
    expect(await countCodes(system)).toBe(before);
  });
});
