import { describe, expect, it } from 'vitest';
import { useUsers } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  setCookieLine,
  startSecondBff,
  usePortalSystem,
  type PortalResponse,
} from '#test/support/portal-system.ts';
import { createTokenSealer } from '../session/token-sealing.ts';
import { LOGIN_TRANSACTION_TTL_MS, loginTransactionSealer } from './login-transaction.ts';

const system = usePortalSystem();
const { user } = useUsers(system, { user: 'Ada Lovelace' });

const STARTS = 300;

/** Every row of the tables the BFF writes: sessions (and, before HD-15, login transactions) and locks. */
async function storedRows(): Promise<number> {
  const sessions = await system.db.selectFrom('sessions').select('sid').execute();
  const locks = await system.db.selectFrom('locks').select('key').execute();
  return sessions.length + locks.length;
}

const tokenRequests = () => system.countUpstream('/oauth/token');

function callback(browser: PortalBrowser, query: URLSearchParams, base = ''): Promise<PortalResponse> {
  return browser.navigate(`${base}/bff/callback?${query.toString()}`, { 'sec-fetch-site': 'same-site' });
}

/** The existing error page of a refused callback, with no session and no token request made. */
function expectRefused(answer: PortalResponse, tokenRequestsBefore: number): void {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  expect(answer.text).toContain('Sign-in could not be completed');
  expect(answer.text).toContain('This sign-in expired or was already completed. Start again.');
  expect(answer.headers.get('location')).toBeNull();
  expect(setCookieLine(answer.headers, 'lk_portal_sid')).toBeUndefined();
  expect(tokenRequests()).toBe(tokenRequestsBefore);
}

/** A sign-in started and authorized at the authorization server, its callback not yet visited. */
async function authorized(returnTo = '/clients'): Promise<{ browser: PortalBrowser; query: URLSearchParams }> {
  const browser = new PortalBrowser(system);
  const start = await browser.startSignIn(returnTo);
  const query = new URL(await browser.authorize(start.location!, user)).searchParams;
  return { browser, query };
}

describe('HD-15 the login transaction is sealed into its cookie: nothing is stored for a sign-in start', () => {
  it(`HD-15 ${STARTS} concurrent anonymous GET /bff/login add no database row, and the sign-in still completes`, async () => {
    const rowsBefore = await storedRows();
    const browsers = Array.from({ length: STARTS }, () => new PortalBrowser(system));
    const started = performance.now();
    const starts = await Promise.all(browsers.map((browser) => browser.startSignIn('/tokens?sort=name')));
    const elapsedMs = performance.now() - started;
    expect(starts.every((start) => start.status === 302)).toBe(true);
    expect(new Set(starts.map((start) => new URL(start.location!).searchParams.get('state'))).size).toBe(STARTS);
    expect(await storedRows()).toBe(rowsBefore);
    const cookies = starts.map((start) => setCookieLine(start.headers, 'lk_portal_tx')!);
    console.info(
      `HD-15: ${STARTS} concurrent sign-in starts in ${Math.round(elapsedMs)} ms, 0 rows stored, ` +
        `Set-Cookie ${Math.min(...cookies.map((c) => c.length))}–${Math.max(...cookies.map((c) => c.length))} bytes`,
    );

    // Any of them still signs in, in its own browser.
    const browser = browsers[STARTS - 1]!;
    const query = new URL(await browser.authorize(starts[STARTS - 1]!.location!, user)).searchParams;
    const done = await callback(browser, query);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/tokens?sort=name');
    expect((await browser.request('/bff/session')).body).toEqual({
      user: { id: user.id, name: 'Ada Lovelace', email: user.email },
      mcpUrl: `${system.config.api.url}/mcp`,
    });
  });

  it('HD-15 the cookie carries the transaction sealed: neither the state nor the verifier can be read from it', async () => {
    const browser = new PortalBrowser(system);
    const start = await browser.startSignIn('/clients');
    const state = new URL(start.location!).searchParams.get('state')!;
    const value = browser.jar.get('lk_portal_tx')!;
    expect(value).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const raw = Buffer.from(value.slice(3), 'base64url').toString('latin1');
    expect(raw).not.toContain(state);
    expect(raw).not.toContain('/clients');
    const opened = JSON.parse(loginTransactionSealer(system.config.sessionSecret).open(value)!) as Record<
      string,
      unknown
    >;
    expect(opened).toMatchObject({ state, returnTo: '/clients', issuer: system.authUrl });
    expect(opened.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('HD-15 an altered, forged or foreign transaction cookie is refused with the sign-in error page', async () => {
    const { browser, query } = await authorized();
    const genuine = browser.jar.get('lk_portal_tx')!;
    const flip = (value: string, at: number) =>
      `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
    const tokenSealer = createTokenSealer(system.config.sessionSecret);
    const otherSecret = loginTransactionSealer(`${system.config.sessionSecret}-other`);
    const opened = loginTransactionSealer(system.config.sessionSecret).open(genuine)!;
    const altered = [
      flip(genuine, 10), // the IV
      flip(genuine, 30), // the tag
      flip(genuine, genuine.length - 5), // the ciphertext
      genuine.slice(0, -4),
      `v2${genuine.slice(2)}`,
      'A'.repeat(43), // the former format: a row id
      tokenSealer.seal(opened), // the same transaction sealed for another purpose (the session's tokens)
      otherSecret.seal(opened), // sealed under another server's secret
      '',
    ];
    for (const value of altered) {
      browser.jar.set('lk_portal_tx', value);
      const before = tokenRequests();
      const answer = await callback(browser, query);
      expectRefused(answer, before);
      expect(setCookieLine(answer.headers, 'lk_portal_tx')).toMatch(/^lk_portal_tx=; Max-Age=0; Path=\//);
    }
    // The genuine cookie, untouched, still completes the sign-in.
    browser.jar.set('lk_portal_tx', genuine);
    expect((await callback(browser, query)).status).toBe(302);
  });

  it('HD-15 a transaction past its lifetime (10 minutes) is refused, whatever the browser still sends', async () => {
    const late = await authorized();
    const inTime = await authorized('/tokens');
    system.clock.advance(LOGIN_TRANSACTION_TTL_MS - 1_000);
    expect((await callback(inTime.browser, inTime.query)).headers.get('location')).toBe('/tokens');
    system.clock.advance(1_000);
    const before = tokenRequests();
    expectRefused(await callback(late.browser, late.query), before);
  });

  it('HD-15 a sign-in started on one BFF instance completes on another, and only once across both', async () => {
    const second = await startSecondBff(system);
    try {
      const browser = new PortalBrowser(system);
      const start = await browser.navigate(`${second.url}/bff/login?returnTo=/explorer`);
      expect(setCookieLine(start.headers, 'lk_portal_tx')).toBeDefined();
      const query = new URL(await browser.authorize(start.location!, user)).searchParams;
      const value = browser.jar.get('lk_portal_tx')!;
      const before = tokenRequests();
      const answers = await Promise.all([callback(browser, query), callback(browser, query, second.url)]);
      expect(answers.map((a) => a.status).sort()).toEqual([302, 400]);
      expect(tokenRequests()).toBe(before + 1);
      browser.jar.set('lk_portal_tx', value);
      expectRefused(await callback(browser, query, second.url), before + 1);
    } finally {
      await second.close();
    }
  });
});
