import { describe, expect, it } from 'vitest';
import {
  authorizeViaPages,
  CookieJar,
  findForm,
  followRedirect,
  openAuthorize,
  parseAuthorizationRedirect,
  submitDecision,
  submitSignIn,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { makeUser, type TestUser } from '#test/support/fixtures.ts';
import { exchangeCode, useTokenEndpoint } from '../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { expectIdTokenResponse, obtainIdToken } from '../endpoints/token/id-token.fixture.ts';
import { countCodes } from './authorize.fixture.ts';

// OpenID Connect Core §3.1.2.1's prompt=none, max_age, id_token_hint and login_hint at
// GET /oauth/authorize (issue 30), through the real pages, on SQLite and PostgreSQL.
const { system, user, app, other } = useTokenEndpoint();
const redirectUri = () => app.client.redirectUris[0]!;

/** GET /oauth/authorize for the file's app with these OpenID Connect parameters. */
function authorize(jar: CookieJar, params: Record<string, string>, clientId = app.client.id): Promise<PageResult> {
  const { prompt, ...extra } = params;
  return openAuthorize(system, jar, {
    clientId,
    redirectUri: clientId === app.client.id ? redirectUri() : other.client.redirectUris[0]!,
    state: 'oidc',
    ...(prompt !== undefined && { prompt }),
    extra: Object.entries({ scope: 'openid profile', ...extra }),
  });
}

/** A browser where `who` signed in and approved the app (scopes openid profile): the next request needs no page. */
async function approvedBrowser(who: TestUser = user): Promise<CookieJar> {
  const { jar } = await authorizeViaPages(system, {
    clientId: app.client.id,
    redirectUri: redirectUri(),
    extra: [['scope', 'openid profile']],
    user: who,
  });
  return jar;
}

/** The redirect's error, with the checks every OI-16 answer shares: a 303 to the client, state and iss, no page. */
function expectRedirectedError(page: PageResult, error: string): void {
  expect(page.status).toBe(303);
  expect(page.html).toBe('');
  const response = parseAuthorizationRedirect(page.location!);
  expect(response.location.startsWith(redirectUri())).toBe(true);
  expect(response.error).toBe(error);
  expect(response.code).toBeUndefined();
  expect(response.state).toBe('oidc');
  expect(response.iss).toBe(system.authUrl);
}

function expectCode(page: PageResult): string {
  expect(page.status).toBe(303);
  const response = parseAuthorizationRedirect(page.location!);
  expect(response.error).toBeUndefined();
  expect(response.state).toBe('oidc');
  return response.code!;
}

async function idTokenClaims(code: string): Promise<Record<string, unknown>> {
  const body = await expectIdTokenResponse(await exchangeCode(system, app, code));
  return JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

/** Signs in on the sign-in page `page` and follows to the authorization's next step. */
async function enterPassword(jar: CookieJar, page: PageResult, who: TestUser = user): Promise<PageResult> {
  expect(page.step).toBe('signin');
  return followRedirect(system, jar, await submitSignIn(system, jar, page, who));
}

describe('OI-16 prompt=none: an answer on the redirect, never a page', () => {
  it('OI-16 nobody signed in: login_required, and no code is issued', async () => {
    const before = await countCodes(system);
    expectRedirectedError(await authorize(new CookieJar(), { prompt: 'none' }), 'login_required');
    expect(await countCodes(system)).toBe(before);
  });

  it('OI-16 signed in but never approved this app: consent_required', async () => {
    const newcomer = await makeUser(system, 'Newcomer');
    const jar = new CookieJar();
    const signedIn = await authorize(jar, { scope: 'profile' }, other.client.id);
    expect((await submitSignIn(system, jar, signedIn, newcomer)).status).toBe(303);
    expectRedirectedError(await authorize(jar, { prompt: 'none' }), 'consent_required');
  });

  it('OI-16 asking for more than was approved: consent_required', async () => {
    const jar = await approvedBrowser();
    expectRedirectedError(await authorize(jar, { prompt: 'none', scope: 'openid profile email' }), 'consent_required');
  });

  it('OI-16 signed in and approved: a code at once, whose ID token is the signed-in user with the nonce', async () => {
    const jar = await approvedBrowser();
    const code = expectCode(await authorize(jar, { prompt: 'none', nonce: 'silent-nonce' }));
    const claims = await idTokenClaims(code);
    expect(claims.sub).toBe(user.id);
    expect(claims.nonce).toBe('silent-nonce');
  });

  it('OI-16 "login consent" together: the password and then the consent page, even after an approval', async () => {
    const jar = await approvedBrowser();
    const next = await enterPassword(jar, await authorize(jar, { prompt: 'login consent' }));
    expect(next.step).toBe('consent');
    expectCode(await submitDecision(system, jar, next, 'allow'));
  });
});

describe('OI-17 max_age: sign in again when the last sign-in is older', () => {
  it('OI-17 max_age=0 asks for the password with a live session; auth_time is the new sign-in', async () => {
    const jar = await approvedBrowser();
    system.clock.advance(10 * 60 * 1000);
    const page = await authorize(jar, { max_age: '0' });
    expect(page.step).toBe('signin');
    expect(page.html).toContain('Confirm it’s you');
    const before = await countCodes(system);
    // The continue step without credentials still asks (the request is marked for a sign-in).
    const requestId = findForm(page.html, '/signin')!.fields.request!;
    const skipped = await followRedirect(system, jar, {
      ...page,
      location: `${system.authUrl}/oauth/authorize/continue?request=${encodeURIComponent(requestId)}`,
    });
    expect(skipped.step).toBe('signin');
    expect(await countCodes(system)).toBe(before);
    const signInAt = Math.floor(system.clock.now() / 1000);
    const claims = await idTokenClaims(expectCode(await enterPassword(jar, page)));
    expect(claims.auth_time).toBe(signInAt);
  });

  it('OI-17 a sign-in younger than max_age is enough; an older one is not', async () => {
    const jar = await approvedBrowser();
    const signedInAt = Math.floor(system.clock.now() / 1000);
    system.clock.advance(10 * 60 * 1000);
    const claims = await idTokenClaims(expectCode(await authorize(jar, { max_age: '3600' })));
    expect(claims.auth_time).toBe(signedInAt);
    expect((await authorize(jar, { max_age: '300' })).step).toBe('signin');
  });

  it('OI-17 OI-16 prompt=none with a sign-in older than max_age: login_required', async () => {
    const jar = await approvedBrowser();
    system.clock.advance(2000);
    expectRedirectedError(await authorize(jar, { prompt: 'none', max_age: '1' }), 'login_required');
  });

  it('OI-17 max_age that is not a whole number of seconds: invalid_request on the redirect', async () => {
    for (const maxAge of ['-1', '1.5', 'abc', '99999999999']) {
      expectRedirectedError(await authorize(new CookieJar(), { max_age: maxAge }), 'invalid_request');
    }
  });
});

describe('OI-15 id_token_hint', () => {
  it('OI-15 a hint about the signed-in user: prompt=none gives a code, also once the hint has expired', async () => {
    const { idToken, jar } = await obtainIdToken(system, user, app);
    expectCode(await authorize(jar, { prompt: 'none', id_token_hint: idToken, scope: 'openid' }));
    system.clock.advance(2 * 60 * 60 * 1000); // past the ID token's hour
    expectCode(await authorize(jar, { prompt: 'none', id_token_hint: idToken, scope: 'openid' }));
  });

  it('OI-15 a hint about someone else: login_required with prompt=none, the sign-in page without', async () => {
    const someoneElse = await makeUser(system, 'Someone Else');
    const { idToken } = await obtainIdToken(system, someoneElse, app);
    const jar = await approvedBrowser();
    expectRedirectedError(await authorize(jar, { prompt: 'none', id_token_hint: idToken }), 'login_required');
    expect((await authorize(jar, { id_token_hint: idToken })).step).toBe('signin');
  });

  it('OI-15 a hint that is not an ID token of this server for this client: invalid_request', async () => {
    const { idToken, jar } = await obtainIdToken(system, user, app);
    const [header, payload, signature] = idToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherSub = Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const forOtherClient = (await obtainIdToken(system, user, other)).idToken;
    for (const hint of [
      `${header}.${otherSub}.${signature}`,
      `${header}.${payload}.${flipped}`,
      'not-a-jwt',
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`,
    ]) {
      expectRedirectedError(await authorize(jar, { id_token_hint: hint }), 'invalid_request');
    }
    expectRedirectedError(await authorize(jar, { id_token_hint: forOtherClient }), 'invalid_request');
  });
});

describe('OI-19 login_hint', () => {
  it('OI-19 pre-fills the email of the sign-in page; a hint that cannot be an email is ignored', async () => {
    const page = await authorize(new CookieJar(), { login_hint: 'ada@example.com' });
    expect(page.step).toBe('signin');
    expect(page.html).toContain('value="ada@example.com"');
    const ignored = await authorize(new CookieJar(), { login_hint: 'x'.repeat(300) });
    expect(ignored.step).toBe('signin');
    expect(ignored.html).not.toContain('x'.repeat(300));
  });

  it('OI-19 a hint is escaped, never markup', async () => {
    const page = await authorize(new CookieJar(), { login_hint: '"><script>alert(1)</script>' });
    expect(page.html).not.toContain('<script>alert(1)');
  });
});
