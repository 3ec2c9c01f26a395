import { expect } from 'vitest';
import { authorizeViaPages, type CookieJar } from '#test/support/browserless-flow.ts';
import { pkcePair, type TestUser } from '#test/support/fixtures.ts';
import type { TestSystem } from '#test/support/system.ts';
import {
  exchangeCode,
  type ClientCredentialsFixture,
  type TokenResponse,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// Shared by the ID token tests (id-token.test.ts) and the end-session endpoint's id_token_hint
// tests (logout-id-token-hint.test.ts): real ID tokens from the code flow, through the pages.

export type IdTokenResponse = TokenResponse & { id_token: string };

/** The documented token response plus `id_token` (OI-01), and nothing else. */
export async function expectIdTokenResponse(res: Response): Promise<IdTokenResponse> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = JSON.parse(text) as IdTokenResponse;
  expect(Object.keys(body).sort()).toEqual([
    'access_token',
    'expires_in',
    'id_token',
    'refresh_token',
    'scope',
    'token_type',
  ]);
  return body;
}

/** The whole browser flow of `user` for `creds`'s client; `params` are extra authorization parameters. */
export async function signInForCode(
  system: TestSystem,
  user: TestUser,
  creds: ClientCredentialsFixture,
  params: Record<string, string>,
  options: { jar?: CookieJar } = {},
): Promise<{ code: string; jar: CookieJar }> {
  const { code, jar } = await authorizeViaPages(system, {
    clientId: creds.client.id,
    redirectUri: creds.client.redirectUris[0]!,
    state: 'oi',
    extra: Object.entries(params),
    user,
    ...(options.jar && { jar: options.jar }),
  });
  expect(code).toBeDefined();
  return { code: code!, jar };
}

/**
 * A real ID token of `user` for `creds`'s client (scope `openid`), and the browser it signed in
 * (or `options.jar`, signed in as `user` already).
 */
export async function obtainIdToken(
  system: TestSystem,
  user: TestUser,
  creds: ClientCredentialsFixture,
  options: { jar?: CookieJar } = {},
): Promise<{ idToken: string; jar: CookieJar }> {
  // With PKCE, which every client accepts and the portal's requires.
  const { verifier, challenge } = pkcePair();
  const params = { scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' };
  const { code, jar } = await signInForCode(system, user, creds, params, options);
  const body = await expectIdTokenResponse(await exchangeCode(system, creds, code, { code_verifier: verifier }));
  return { idToken: body.id_token, jar };
}
