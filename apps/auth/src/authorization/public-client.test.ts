// Issue 29: public clients (RFC 6749 §2.1) at /oauth/authorize and on the consent page: PKCE
// required (PC-02), loopback redirect URLs with any port (RFC 8252 §7.3, PC-06), private-use
// schemes (RFC 8252 §7.1, PC-05), and the consent page saying the app is public (PC-10).
import { describe, expect, it } from 'vitest';
import {
  authorizeViaPages,
  CookieJar,
  getConsent,
  openAuthorize,
  type AuthorizeRequest,
} from '#test/support/browserless-flow.ts';
import { makeClient, makeUser, pkcePair, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import {
  expectTokenResponse,
  makePublicClient,
  publicTokenRequest,
  expectOAuthError,
} from '../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { countCodes, expectErrorPage, expectErrorRedirect, REDIRECT_URI } from './authorize.fixture.ts';

const system = useSystem();
const { owner } = useUsers(system, { owner: 'Olivia Owner' });
const LOOPBACK_V4 = 'http://127.0.0.1/callback';
const LOOPBACK_V6 = 'http://[::1]/callback';
const NATIVE = 'com.example.app:/callback';
const { spa, cli, confidentialLoopback } = perFile(async () => ({
  spa: await makePublicClient(system, owner, [REDIRECT_URI], 'Browser App'),
  cli: await makePublicClient(system, owner, [LOOPBACK_V4, LOOPBACK_V6, NATIVE], 'Command Line App'),
  confidentialLoopback: (await makeClient(system, owner, { redirectUris: [LOOPBACK_V4, LOOPBACK_V6] })).client,
}));

/** A new person signs in and allows, with PKCE; the code and its verifier. */
async function signInWithPkce(
  request: AuthorizeRequest,
): Promise<{ code: string; verifier: string; location: string }> {
  const { verifier, challenge } = pkcePair();
  const result = await authorizeViaPages(system, {
    ...request,
    codeChallenge: challenge,
    user: await makeUser(system),
  });
  expect(result.code, result.location).toBeDefined();
  return { code: result.code!, verifier, location: result.location };
}

describe('PC-02 a public client must send PKCE S256', () => {
  it('PC-02 no code_challenge: invalid_request on the redirect with state, naming public clients; no code', async () => {
    const before = await countCodes(system);
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: spa.id,
      redirectUri: REDIRECT_URI,
      state: 'pc02-state',
    });
    const response = expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', 'pc02-state');
    expect(response.errorDescription).toMatch(/public client must use PKCE/);
    expect(await countCodes(system)).toBe(before);
  });

  it('PC-02 code_challenge_method plain is refused the same way', async () => {
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: spa.id,
      redirectUri: REDIRECT_URI,
      state: 's',
      codeChallenge: pkcePair().verifier,
      codeChallengeMethod: 'plain',
    });
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', 's');
  });

  it('PC-02 with S256 the request goes on to sign-in', async () => {
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: spa.id,
      redirectUri: REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
    });
    expect(page.step).toBe('signin');
  });
});

describe('PC-06 a public client’s loopback IP redirect URL matches with any port (RFC 8252 §7.3)', () => {
  for (const [registered, asked] of [
    [LOOPBACK_V4, 'http://127.0.0.1:53127/callback'],
    [LOOPBACK_V6, 'http://[::1]:53127/callback'],
  ] as const) {
    it(`PC-06 registered ${registered}, asked ${asked}: signs in, the code goes to that port and redeems with it`, async () => {
      const { code, verifier, location } = await signInWithPkce({ clientId: cli.id, redirectUri: asked, state: 'p' });
      expect(location.startsWith(`${asked}?`)).toBe(true);
      const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier };
      // RU-12: the code is bound to the URL sent, port included; the registered one is another URL.
      await expectOAuthError(
        await publicTokenRequest(system, cli, { ...exchange, redirect_uri: registered }),
        400,
        'invalid_grant',
      );
      await expectTokenResponse(await publicTokenRequest(system, cli, { ...exchange, redirect_uri: asked }));
    });
  }

  it('PC-06 the registered value itself, with no port, still works', async () => {
    const { location } = await signInWithPkce({ clientId: cli.id, redirectUri: LOOPBACK_V4 });
    expect(location.startsWith(`${LOOPBACK_V4}?code=`)).toBe(true);
  });

  for (const redirectUri of [
    'http://127.0.0.1:53127/other',
    'http://127.0.0.1:53127/callback/',
    'http://127.0.0.1:53127/callback?x=1',
    'https://127.0.0.1:53127/callback',
    'http://localhost:53127/callback',
    'http://localhost/callback',
    'http://127.0.0.2:53127/callback',
    'http://127.0.0.1:53127@evil.example/callback',
    'http://[::1]:53127/other',
  ]) {
    it(`PC-06 ${redirectUri}: 400 page, no Location, no code`, async () => {
      const before = await countCodes(system);
      const page = await openAuthorize(system, new CookieJar(), {
        clientId: cli.id,
        redirectUri,
        codeChallenge: pkcePair().challenge,
      });
      expectErrorPage(page, 400);
      expect(page.html).toContain('redirect_uri');
      expect(await countCodes(system)).toBe(before);
    });
  }

  it('PC-06 a confidential client with the same registration keeps exact matching: the port variant is refused', async () => {
    for (const redirectUri of ['http://127.0.0.1:53127/callback', 'http://[::1]:53127/callback']) {
      const page = await openAuthorize(system, new CookieJar(), {
        clientId: confidentialLoopback.id,
        redirectUri,
        codeChallenge: pkcePair().challenge,
      });
      expectErrorPage(page, 400);
    }
    const exact = await openAuthorize(system, new CookieJar(), {
      clientId: confidentialLoopback.id,
      redirectUri: LOOPBACK_V4,
    });
    expect(exact.step).toBe('signin');
  });
});

describe('PC-05 a public client’s private-use scheme redirect URL (RFC 8252 §7.1)', () => {
  it('PC-05 com.example.app:/callback gets the code, and the consent page names the scheme as where the answer goes', async () => {
    const page = await getConsent(
      system,
      new CookieJar(),
      { clientId: cli.id, redirectUri: NATIVE, codeChallenge: pkcePair().challenge },
      await makeUser(system),
    );
    expect(page.html).toMatch(/sent back to\s*<strong>com\.example\.app<\/strong>/);
    // CJ-04: the consent form's 303 to the app's scheme is allowed by form-action, or Chromium stops it.
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' com\.example\.app:(;|$)/);
    const { location } = await signInWithPkce({ clientId: cli.id, redirectUri: NATIVE, state: 'n' });
    expect(location.startsWith(`${NATIVE}?code=`)).toBe(true);
  });
});

describe('PC-10 the consent page says when an app is public', () => {
  const line = 'This app runs on your device or in your browser.';

  it('PC-10 a public client: the line is shown under the app’s name', async () => {
    const page = await getConsent(
      system,
      new CookieJar(),
      { clientId: spa.id, redirectUri: REDIRECT_URI, codeChallenge: pkcePair().challenge },
      await makeUser(system),
    );
    expect(page.html).toContain(line);
    expect(page.html.indexOf(line)).toBeGreaterThan(page.html.indexOf('Authorize Browser App'));
  });

  it('PC-10 a confidential client: no such line', async () => {
    const { client } = await makeClient(system, owner, { redirectUri: REDIRECT_URI });
    const page = await getConsent(
      system,
      new CookieJar(),
      { clientId: client.id, redirectUri: REDIRECT_URI },
      await makeUser(system),
    );
    expect(page.html).not.toContain(line);
  });
});
