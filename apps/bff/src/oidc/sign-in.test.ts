import { beforeAll, describe, expect, it } from 'vitest';
import { OFF_SITE_RETURN_PATHS, useUsers } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  sessionIdOf,
  setCookieLine,
  startSecondBff,
  usePortalSystem,
  type PortalResponse,
} from '#test/support/portal-system.ts';

const system = usePortalSystem();
const { user, attacker } = useUsers(system, { user: 'Grace Hopper', attacker: 'Mallory' });

/** Rows of the sessions table: a started sign-in adds none (HD-15); a used transaction leaves a mark. */
async function sessionRows(): Promise<number> {
  const rows = await system.db.selectFrom('sessions').select('sid').execute();
  return rows.length;
}

const tokenRequests = () => system.countUpstream('/oauth/token');

/** Starts a sign-in and walks the authorization server's pages; returns the callback's query. */
async function authorizationResponse(browser: PortalBrowser, returnTo?: string): Promise<URLSearchParams> {
  const start = await browser.startSignIn(returnTo);
  const callback = await browser.authorize(start.location!, user);
  return new URL(callback).searchParams;
}

function callback(browser: PortalBrowser, params: URLSearchParams | Record<string, string>): Promise<PortalResponse> {
  return browser.navigate(`/bff/callback?${new URLSearchParams(params).toString()}`, { 'sec-fetch-site': 'same-site' });
}

function expectNoSession(response: PortalResponse): void {
  expect(setCookieLine(response.headers, 'lk_portal_sid')).toBeUndefined();
}

describe('DD-9: sign-in through the BFF (authorization code + state + PKCE)', () => {
  it('RFC 6749 §4.1: /bff/login → sign-in page → /bff/callback → a session, and /bff/session names the user', async () => {
    const browser = new PortalBrowser(system);
    const start = await browser.startSignIn('/tokens?sort=name');
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${system.authUrl}/oauth/authorize`);
    const params = authorize.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(system.config.portal.clientId);
    expect(params.get('redirect_uri')).toBe(system.config.portal.redirectUri);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.has('code_verifier')).toBe(false);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const tx = setCookieLine(start.headers, 'lk_portal_tx')!;
    expect(tx).toMatch(
      /^lk_portal_tx=v1\.[A-Za-z0-9_-]+; Max-Age=600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
    );

    const callbackUrl = new URL(await browser.authorize(start.location!, user));
    expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(system.config.portal.redirectUri);
    const before = tokenRequests();
    const done = await browser.navigate(`${callbackUrl.pathname}${callbackUrl.search}`);
    // RF-02: a bare 302 to the app; the code never reaches the SPA.
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/tokens?sort=name');
    expect(done.headers.get('referrer-policy')).toBe('no-referrer');
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.text).toBe('');
    expect(system.countUpstream('/oauth/token', 'authorization_code')).toBe(before + 1);
    const sid = setCookieLine(done.headers, 'lk_portal_sid')!;
    expect(sid).toMatch(/^lk_portal_sid=s%3A[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    expect(sid).not.toMatch(/Domain/i);
    expect(setCookieLine(done.headers, 'lk_portal_tx')).toMatch(/^lk_portal_tx=; Max-Age=0; Path=\//);

    const session = await browser.request('/bff/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({
      user: { id: user.id, name: 'Grace Hopper', email: user.email },
      mcpUrl: `${system.config.api.url}/mcp`,
    });
    expect(session.headers.get('cache-control')).toBe('no-store');
  });

  it('PK-09 two sign-in starts in one browser get different state and verifier; the second replaces the first, the used one is spent', async () => {
    const browser = new PortalBrowser(system);
    const rowsBefore = await sessionRows();
    const first = new URL((await browser.startSignIn('/clients')).location!).searchParams;
    const firstCookie = browser.jar.get('lk_portal_tx');
    const second = new URL((await browser.startSignIn('/tokens')).location!).searchParams;
    expect(second.get('state')).not.toBe(first.get('state'));
    expect(second.get('code_challenge')).not.toBe(first.get('code_challenge'));
    expect(browser.jar.get('lk_portal_tx')).not.toBe(firstCookie);
    expect(await sessionRows()).toBe(rowsBefore);

    const response = await browser.authorize(`${system.authUrl}/oauth/authorize?${second.toString()}`, user);
    const query = new URL(response).searchParams;
    const cookie = browser.jar.get('lk_portal_tx')!;
    const done = await callback(browser, query);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/tokens');
    browser.jar.set('lk_portal_tx', cookie);
    expect((await callback(browser, query)).status).toBe(400);
    // The verifier itself never left the server in the clear: only its S256 challenge, and
    // the transaction sealed in its cookie.
    expect(browser.transcript.join('\n')).not.toMatch(/code_verifier/);
  });

  it("PK-09 the first tab's authorization response, after a second sign-in started in the browser: 400, no token request", async () => {
    const browser = new PortalBrowser(system);
    const first = (await browser.startSignIn('/clients')).location!;
    await browser.startSignIn('/tokens');
    const query = new URL(await browser.authorize(first, user)).searchParams;
    const before = tokenRequests();
    const answer = await callback(browser, query);
    expect(answer.status).toBe(400);
    expectNoSession(answer);
    expect(tokenRequests()).toBe(before);
  });

  describe('OR-02 /bff/login?returnTo= accepts only same-origin relative paths', () => {
    let browser: PortalBrowser;
    beforeAll(() => {
      browser = new PortalBrowser(system);
    });
    it.each([...OFF_SITE_RETURN_PATHS, '/bff/logout'])('returnTo=%j ends the sign-in at /', async (returnTo) => {
      const query = await authorizationResponse(browser, returnTo);
      const done = await callback(browser, query);
      expect(done.status).toBe(302);
      expect(done.headers.get('location')).toBe('/');
    });

    it('a repeated returnTo counts as none', async () => {
      const start = await browser.navigate('/bff/login?returnTo=/clients&returnTo=//evil.example');
      const done = await callback(browser, new URL(await browser.authorize(start.location!, user)).searchParams);
      expect(done.headers.get('location')).toBe('/');
    });
  });
});

describe('sign-in again after signing out', () => {
  it('prompt=login is passed to the authorization server (the password is asked again); other prompts are not', async () => {
    const browser = new PortalBrowser(system);
    const forced = await browser.navigate('/bff/login?returnTo=/clients&prompt=login');
    expect(new URL(forced.location!).searchParams.get('prompt')).toBe('login');
    const plain = await browser.navigate('/bff/login?returnTo=/clients&prompt=consent');
    expect(new URL(plain.location!).searchParams.has('prompt')).toBe(false);
  });
});

describe('RFC 9700 §4.7 state and the login transaction (BF-ST-*)', () => {
  it("BF-ST-01 a state that is not the transaction's: 400, no token request, no session, the transaction is gone", async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    const state = query.get('state')!;
    const cookie = browser.jar.get('lk_portal_tx')!;
    query.set('state', 'not-the-state-this-browser-sent');
    const before = tokenRequests();
    const answer = await callback(browser, query);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('location')).toBeNull();
    expect(tokenRequests()).toBe(before);
    expectNoSession(answer);
    expect(setCookieLine(answer.headers, 'lk_portal_tx')).toMatch(/Max-Age=0/);
    expect((await browser.request('/bff/session')).status).toBe(401);
    // The transaction is spent: its cookie put back, with its own state, is refused too.
    browser.jar.set('lk_portal_tx', cookie);
    query.set('state', state);
    expect((await callback(browser, query)).status).toBe(400);
    expect(tokenRequests()).toBe(before);
  });

  it('BF-ST-02 no state, or no transaction cookie: 400 and no token request', async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    const before = tokenRequests();
    const withoutState = new URLSearchParams(query);
    withoutState.delete('state');
    const cookie = browser.jar.get('lk_portal_tx')!;
    const noState = await callback(browser, withoutState);
    expect(noState.status).toBe(400);
    expectNoSession(noState);

    const other = new PortalBrowser(system);
    const query2 = await authorizationResponse(other);
    other.jar.delete('lk_portal_tx');
    const noCookie = await callback(other, query2);
    expect(noCookie.status).toBe(400);
    expectNoSession(noCookie);
    expect(tokenRequests()).toBe(before);
    expect(cookie).toBeDefined();
  });

  it('BF-ST-03 a callback replayed with the same state and cookie: 400 the second time, one token request in all', async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    const cookie = browser.jar.get('lk_portal_tx')!;
    const before = tokenRequests();
    const first = await callback(browser, query);
    expect(first.status).toBe(302);
    browser.jar.set('lk_portal_tx', cookie);
    const replay = await callback(browser, query);
    expect(replay.status).toBe(400);
    expectNoSession(replay);
    expect(tokenRequests()).toBe(before + 1);
  });

  it('BF-ST-03 two parallel callbacks with one transaction: exactly one token request', async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    const before = tokenRequests();
    const answers = await Promise.all([callback(browser, query), callback(browser, query), callback(browser, query)]);
    expect(answers.map((a) => a.status).sort()).toEqual([302, 400, 400]);
    expect(tokenRequests()).toBe(before + 1);
  });

  it('BF-ST-04 error=access_denied with a valid state: no session, redirect to / with a message, transaction deleted', async () => {
    const browser = new PortalBrowser(system);
    const start = await browser.startSignIn('/clients');
    const state = new URL(start.location!).searchParams.get('state')!;
    const cookie = browser.jar.get('lk_portal_tx')!;
    const before = tokenRequests();
    const answer = await callback(browser, { error: 'access_denied', state, iss: system.authUrl });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/?error=signin_failed');
    expectNoSession(answer);
    expect(tokenRequests()).toBe(before);
    expect(setCookieLine(answer.headers, 'lk_portal_tx')).toMatch(/Max-Age=0/);
    browser.jar.set('lk_portal_tx', cookie);
    expect((await callback(browser, { error: 'access_denied', state, iss: system.authUrl })).status).toBe(400);
  });

  it('a code the server refuses: redirect to /?error=signin_failed, one token request, no session', async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    query.set('code', 'not-a-real-code');
    const before = tokenRequests();
    const answer = await callback(browser, query);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/?error=signin_failed');
    expectNoSession(answer);
    expect(tokenRequests()).toBe(before + 1);
  });
});

describe('RFC 9207 mix-up defence', () => {
  it('MX-01 a callback whose iss is not the authorization server: 400, no token request', async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    query.set('iss', 'https://evil.example');
    const before = tokenRequests();
    const answer = await callback(browser, query);
    expect(answer.status).toBe(400);
    expectNoSession(answer);
    expect(tokenRequests()).toBe(before);
  });

  it('MX-01 a callback without iss from a server that promises it: 400, no token request', async () => {
    const browser = new PortalBrowser(system);
    const query = await authorizationResponse(browser);
    query.delete('iss');
    const before = tokenRequests();
    const answer = await callback(browser, query);
    expect(answer.status).toBe(400);
    expect(tokenRequests()).toBe(before);
  });
});

describe('session fixation (BF-SF-*)', () => {
  it('BF-SF-01 a planted session cookie is replaced at sign-in; the planted id no longer works', async () => {
    const mallory = new PortalBrowser(system);
    await mallory.signIn(attacker);
    const planted = mallory.sessionCookie()!;

    const victim = new PortalBrowser(system);
    victim.jar.set('lk_portal_sid', planted);
    expect((await victim.request('/bff/session')).body).toMatchObject({ user: { id: attacker.id } });
    const done = await victim.signIn(user);
    const issued = setCookieLine(done.headers, 'lk_portal_sid');
    expect(issued).toBeDefined();
    expect(victim.sessionCookie()).not.toBe(planted);
    expect(sessionIdOf(victim.sessionCookie()!)).not.toBe(sessionIdOf(planted));
    expect((await victim.request('/bff/session')).body.user.id).toBe(user.id);
    // The planted id was destroyed by the regeneration: it is nobody's session now.
    const replay = await victim.request('/bff/session', { headers: { cookie: `lk_portal_sid=${planted}` } });
    expect(replay.status).toBe(401);
  });

  it('BF-SF-01 an invented session id is never adopted', async () => {
    const browser = new PortalBrowser(system);
    browser.jar.set('lk_portal_sid', 'attacker-chosen-id');
    const done = await browser.signIn(user);
    expect(done.status).toBe(302);
    expect(browser.sessionCookie()).not.toBe('attacker-chosen-id');
    expect((await browser.request('/bff/session')).status).toBe(200);
  });

  it('BF-SF-02 sign-in, sign-out and sign-in again: a new session id each time', async () => {
    const browser = new PortalBrowser(system);
    await browser.signIn(user);
    const first = sessionIdOf(browser.sessionCookie()!);
    expect((await browser.request('/bff/logout', { method: 'POST' })).status).toBe(204);
    expect(browser.sessionCookie()).toBeUndefined();
    await browser.signIn(user);
    const second = sessionIdOf(browser.sessionCookie()!);
    expect(second).not.toBe(first);
  });

  it('a second sign-in in the same browser revokes the grant of the first', async () => {
    const browser = new PortalBrowser(system);
    await browser.signIn(user);
    const grantsBefore = await system.db
      .selectFrom('grants')
      .select(['id', 'revoked_at'])
      .where('user_id', '=', user.id)
      .where('client_id', '=', system.config.portal.clientId)
      .where('revoked_at', 'is', null)
      .execute();
    await browser.signIn(user);
    const live = await system.db
      .selectFrom('grants')
      .select('id')
      .where('user_id', '=', user.id)
      .where('client_id', '=', system.config.portal.clientId)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live.length).toBe(grantsBefore.length);
  });
});

describe('BF-PX-01 the Host header never steers a redirect', () => {
  it('Host: evil.example still sends the browser to the configured authorization server, and back to a relative path', async () => {
    const browser = new PortalBrowser(system);
    const start = await browser.navigate('/bff/login?returnTo=/clients', { host: 'evil.example' });
    expect(start.location!.startsWith(`${system.authUrl}/oauth/authorize?`)).toBe(true);
    const query = new URL(await browser.authorize(start.location!, user)).searchParams;
    const done = await browser.navigate(`/bff/callback?${query.toString()}`, { host: 'evil.example' });
    expect(done.headers.get('location')).toBe('/clients');
  });
});

describe('sign-in starts are rate limited per address', () => {
  it('the 61st start within a minute: 429 page with Retry-After, no transaction', async () => {
    const bff = await startSecondBff(system, {
      config: { ...system.config, rateLimit: { ...system.config.rateLimit, loginPerMinute: 1 } },
    });
    try {
      const browser = new PortalBrowser(system);
      for (let i = 0; i < 60; i += 1) expect((await browser.navigate(`${bff.url}/bff/login`)).status).toBe(302);
      const limited = await browser.navigate(`${bff.url}/bff/login`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toMatch(/^text\/html/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('location')).toBeNull();
      expect(limited.headers.getSetCookie()).toEqual([]);
    } finally {
      await bff.close();
    }
  });
});
