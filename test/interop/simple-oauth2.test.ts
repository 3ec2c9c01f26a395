// simple-oauth2 5 (issue 18) with the configuration docs/integrating.md shows: AuthorizationCode,
// authorizeURL, getToken, the API call, expired(), refresh() and revokeAll(). Run once with
// `expires_in` as the documented digit string and once as a JSON number.
//
// simple-oauth2 computes `expires_at` as `Date.now() + Number.parseInt(expires_in, 10) * 1000`
// (lib/access-token-parser.js), so both shapes give the same date. Its HTTP client (wreck with
// `json: 'strict'`) refuses any answer that is not application/json, so revokeAll() needs the
// revocation endpoint to answer a JSON body (`{}`), not an empty one.
import { AuthorizationCode, type AccessToken } from 'simple-oauth2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRES_IN_MODES, startInteropSystem, type InteropSystem } from './interop-support.ts';

const redirectUri = 'http://127.0.0.1:8765/callback';
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** The configuration of docs/integrating.md. */
function configure(
  interop: InteropSystem,
  clientId: string,
  clientSecret: string,
  authorizationMethod: 'body' | 'header',
) {
  return new AuthorizationCode({
    client: { id: clientId, secret: clientSecret },
    auth: {
      tokenHost: interop.system.authUrl,
      tokenPath: '/oauth/token',
      authorizePath: '/oauth/authorize',
      revokePath: '/oauth/revoke',
    },
    options: { authorizationMethod },
  });
}

/** The expiry simple-oauth2 computed: about one year ahead, a real date (not NaN, not past). */
function expectOneYearAhead(accessToken: AccessToken): void {
  const expiresAt = accessToken.token.expires_at as Date;
  expect(expiresAt).toBeInstanceOf(Date);
  expect(Number.isNaN(expiresAt.getTime())).toBe(false);
  expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + ONE_YEAR_MS - 60_000);
  expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + ONE_YEAR_MS);
  expect(accessToken.expired()).toBe(false);
  // Still valid a day from now (the window a client would use to refresh early).
  expect(accessToken.expired(24 * 60 * 60)).toBe(false);
}

/** The `error` of the OAuth error body that simple-oauth2's wreck error carries. */
async function oauthError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return (error as { data?: { payload?: { error?: unknown } } }).data?.payload?.error;
  }
  return 'no error';
}

describe.each(EXPIRES_IN_MODES)('CL-05 simple-oauth2 5 ($name)', ({ env }) => {
  const expiresInAsNumber = 'EXPIRES_IN_AS_NUMBER' in env;
  let interop: InteropSystem;

  beforeAll(async () => {
    interop = await startInteropSystem(env);
  });
  afterAll(() => interop?.close());

  it.each(['body', 'header'] as const)(
    'CL-05 runs getToken, API call, expired(), refresh() and revokeAll() (authorizationMethod %s)',
    async (authorizationMethod) => {
      const { clientId, clientSecret } = await interop.registerClient(redirectUri);
      const client = configure(interop, clientId, clientSecret, authorizationMethod);

      const state = 'state-' + Math.random().toString(36).slice(2);
      const authorizationUrl = client.authorizeURL({ redirect_uri: redirectUri, state });
      const callback = await interop.runBrowser(authorizationUrl);
      // simple-oauth2 leaves the state check to the application.
      expect(callback.searchParams.get('state')).toBe(state);
      expect(callback.searchParams.get('iss')).toBe(interop.system.authUrl);

      const accessToken = await client.getToken({
        code: callback.searchParams.get('code')!,
        redirect_uri: redirectUri,
      });
      // The wire type reaches simple-oauth2 untouched (token keeps the raw field).
      expect(typeof accessToken.token.expires_in).toBe(expiresInAsNumber ? 'number' : 'string');
      expectOneYearAhead(accessToken);
      const first = accessToken.token as { access_token: string; refresh_token: string };
      expect(await interop.profileName(first.access_token)).toBe('Katherine Johnson');

      // Refresh: a new pair (the refresh token rotates) and the new access token works.
      const refreshed = await accessToken.refresh();
      expectOneYearAhead(refreshed);
      const second = refreshed.token as { access_token: string; refresh_token: string };
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(await interop.profileName(second.access_token)).toBe('Katherine Johnson');

      // revokeAll() posts token_type_hint=access_token then refresh_token; both answers must be
      // JSON for wreck (json: 'strict') to accept them.
      await expect(refreshed.revokeAll()).resolves.toBeUndefined();
      expect(await interop.profileName(second.access_token)).toBeUndefined();
      expect(await oauthError(refreshed.refresh())).toBe('invalid_grant');
    },
  );
});
