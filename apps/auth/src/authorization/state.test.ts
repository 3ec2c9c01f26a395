import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorizeViaPages, CookieJar, fetchPage, openAuthorize } from '#test/support/browserless-flow.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, expectErrorRedirect, REDIRECT_URI, useConsentedBrowser } from './authorize.fixture.ts';

const system = useSystem();
const { user, client, jar } = useConsentedBrowser(system);

/**
 * 1,000 VSCHAR characters (%x20-7E): each of the 95 once, so a character mishandled fails every
 * run rather than the runs that happen to draw it (issue 13), then random ones for the
 * sequences (`%41`, `+`, `&a=`) that only a mix produces. A failure prints the whole value.
 */
function randomVschar(length: number): string {
  const every = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
  const rest = Array.from(randomBytes(length - every.length), (b) => String.fromCharCode(0x20 + (b % 95))).join('');
  return every + rest;
}

describe('RFC 6749 §4.1.2 state is echoed exactly', () => {
  it('ST-01 1,000 random VSCHAR characters come back byte-exactly with the code', async () => {
    const state = randomVschar(1000);
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state,
      jar,
    });
    expect(result.code).toBeDefined();
    expect(result.state).toBe(state);
  });

  it('ST-01 (error path) the same state comes back byte-exactly with an error', async () => {
    const state = randomVschar(1000);
    const page = await openAuthorize(system, jar, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state,
      responseType: 'token',
    });
    expectErrorRedirect(system, page, REDIRECT_URI, 'unsupported_response_type', state);
  });

  it('ST-02 &, =, +, %, space and # are echoed exactly and percent-encoded in Location', async () => {
    const state = 'a&b=c+d%20e f#g';
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state,
      jar,
    });
    expect(result.state).toBe(state);
    const raw = result.location.split('state=')[1]!.split('&')[0]!;
    expect(raw).toBe('a%26b%3Dc%2Bd%2520e%20f%23g');
    expect(decodeURIComponent(raw)).toBe(state);
  });

  it('ST-03 state of 4,096 characters is echoed; 4,097 is invalid_request without echo, never 500', async () => {
    const ok = 's'.repeat(4096);
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: ok,
      jar,
    });
    expect(result.state).toBe(ok);

    const before = await countCodes(system);
    const page = await openAuthorize(system, jar, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 's'.repeat(4097),
    });
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', undefined);
    expect(await countCodes(system)).toBe(before);
  });

  it('ST-03 (AZ-14) a URL above ~16 KiB is refused by Node with 431 before the app, never 500', async () => {
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 's'.repeat(20_000),
    });
    expect(page.status).toBe(431);
    expect(page.location).toBeUndefined();
  });

  it('ST-04 state= (empty) is treated as absent: no state in the response', async () => {
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: '',
      jar,
    });
    expect(result.code).toBeDefined();
    expect(result.state).toBeUndefined();
    expect(result.location).not.toContain('state=');
  });

  it('ST-05 non-ASCII and NUL (%E2%80%AE%F0%9F%98%80%00): invalid_request redirect without state, no header injection', async () => {
    const before = await countCodes(system);
    const page = await fetchPage(
      system,
      jar,
      `/oauth/authorize?client_id=${client.id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=%E2%80%AE%F0%9F%98%80%00`,
    );
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', undefined);
    expect(await countCodes(system)).toBe(before);
  });

  it('ST-05 CR/LF in state never reaches a header: invalid_request, Location has no raw CR/LF', async () => {
    const page = await fetchPage(
      system,
      jar,
      `/oauth/authorize?client_id=${client.id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=a%0D%0ASet-Cookie:%20x=1`,
    );
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', undefined);
    expect(page.headers.get('location')).not.toMatch(/[\r\n]/);
    expect(page.headers.getSetCookie().some((c) => c.startsWith('x='))).toBe(false);
  });

  it('P-02 duplicated state: invalid_request and state omitted', async () => {
    const page = await openAuthorize(system, jar, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 'one',
      extra: [['state', 'two']],
    });
    const response = expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', undefined);
    expect(response.errorDescription).toContain('state');
  });
});
