import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
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

export interface DecodedJwt {
  header: { alg: string; kid: string; typ?: string };
  payload: Record<string, unknown>;
}

/** The JWKS as a verifier gets it: from the server's /.well-known/jwks.json. */
export async function publishedKeys(
  system: TestSystem,
): Promise<Array<JsonWebKey & { kid: string; alg: string; use: string }>> {
  const res = await fetch(`${system.authUrl}/.well-known/jwks.json`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { keys: Array<JsonWebKey & { kid: string; alg: string; use: string }> }).keys;
}

/**
 * Verifies a compact JWS against the published JWKS with node:crypto, an implementation apart from
 * the jose that signed it: the key named by `kid`, of the header's alg (ES256's signature is r||s).
 */
export async function verifyIdToken(system: TestSystem, token: string): Promise<DecodedJwt> {
  const [header64, payload64, signature64, ...rest] = token.split('.');
  expect(rest).toEqual([]);
  const header = JSON.parse(Buffer.from(header64!, 'base64url').toString()) as DecodedJwt['header'];
  const key = (await publishedKeys(system)).find((k) => k.kid === header.kid);
  expect(key, `kid ${header.kid} in the JWKS`).toBeDefined();
  expect(key!.alg).toBe(header.alg);
  const publicKey = createPublicKey({ key: key!, format: 'jwk' });
  const valid = verify(
    'sha256',
    Buffer.from(`${header64}.${payload64}`),
    header.alg === 'ES256' ? { key: publicKey, dsaEncoding: 'ieee-p1363' } : publicKey,
    Buffer.from(signature64!, 'base64url'),
  );
  expect(valid, 'signature').toBe(true);
  return { header, payload: JSON.parse(Buffer.from(payload64!, 'base64url').toString()) as Record<string, unknown> };
}
