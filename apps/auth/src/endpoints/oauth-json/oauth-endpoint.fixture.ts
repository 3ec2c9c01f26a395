// Test fixtures for the token and revocation endpoints: form posts over real HTTP and the
// assertions every OAuth answer shares (status, code, no-store, safe description).
import type { Scope } from '@latchkey/contracts';
import { authenticateAccessToken, createClient, issueAuthorizationCode, type Client, type User } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { expect } from 'vitest';
import { makeClient, makeUser, type TestUser } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem, type TestSystem } from '#test/support/system.ts';

/** RFC 6749 §5.2 / AC-10: the charset of error_description. */
export const SAFE_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;

export interface ClientCredentialsFixture {
  client: Client;
  clientSecret: string;
}

export interface TokenEndpointFixture {
  system: TestSystem;
  /** Owns `app` and `other`. */
  owner: TestUser;
  /** Signs in to the clients: the codes are theirs. */
  user: TestUser;
  app: ClientCredentialsFixture;
  /** A second client, with another redirect URI. */
  other: ClientCredentialsFixture;
}

/**
 * What the token endpoint's files start from (per-file.ts): a system whose token limiter is out of
 * the way (their deliberate 401s come from one loopback address; the limiter has its own suite),
 * a user, and two clients. `env` adds settings. The clients' owner is another user ('Client
 * Owner') unless `userOwnsClients`.
 */
export function useTokenEndpoint(
  env: Record<string, string> = {},
  { userOwnsClients = false } = {},
): TokenEndpointFixture {
  const system = useSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: '10000', ...env });
  const { owner, user, app, other } = perFile(async () => {
    const owner = userOwnsClients ? undefined : await makeUser(system, 'Client Owner');
    const user = await makeUser(system);
    const app = await makeClient(system, owner ?? user);
    const other = await makeClient(system, owner ?? user, {
      name: 'Other App',
      redirectUri: 'https://other.example/cb',
    });
    return { owner: owner ?? user, user, app, other };
  });
  return { system, owner, user, app, other };
}

/** A code for the client's first redirect URI with the scopes the user approved (SC-04); makeCode gives the default. */
export function makeScopedCode(system: TestSystem, client: Client, user: User, scopes: Scope[]): Promise<string> {
  return issueAuthorizationCode(system.db, system.clock, {
    client,
    userId: user.id,
    redirectUri: client.redirectUris[0]!,
    codeChallenge: null,
    scopes,
  });
}

export type FormInput = Record<string, string> | URLSearchParams | string;

/** POSTs a form (a string body is sent as is, with the Content-Type given or the form type). */
export async function postForm(url: string, form: FormInput, headers: Record<string, string> = {}): Promise<Response> {
  const body = typeof form === 'string' ? form : form instanceof URLSearchParams ? form : new URLSearchParams(form);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: typeof body === 'string' ? body : body.toString(),
    redirect: 'manual',
  });
}

/** RFC 6749 §2.3.1: each part form-encoded, joined with a colon, base64. */
export function basicAuth(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export function tokenUrl(system: TestSystem): string {
  return `${system.authUrl}/oauth/token`;
}

export function revokeUrl(system: TestSystem): string {
  return `${system.authUrl}/oauth/revoke`;
}

/** PC-01: a public client of `owner` (no secret; PKCE required) at these redirect URLs. */
export async function makePublicClient(
  system: TestSystem,
  owner: User,
  redirectUris: string[],
  name = 'Browser App',
): Promise<Client> {
  return (await createClient(system.db, system.clock, { ownerId: owner.id, name, redirectUris, public: true })).client;
}

/** PC-03: a public client's token request: its client_id and no client authentication (`none`). */
export async function publicTokenRequest(
  system: TestSystem,
  client: Client,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return postForm(tokenUrl(system), { ...form, client_id: client.id }, headers);
}

/** The documented code exchange: client_secret_post in the form body. */
export async function exchangeCode(
  system: TestSystem,
  creds: ClientCredentialsFixture,
  code: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return postForm(
    tokenUrl(system),
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: creds.client.redirectUris[0]!,
      client_id: creds.client.id,
      client_secret: creds.clientSecret,
      ...extra,
    },
    headers,
  );
}

/** The documented refresh request; `bearer` adds its `Authorization: Bearer` header. */
export async function refreshWith(
  system: TestSystem,
  creds: ClientCredentialsFixture,
  refreshToken: string,
  options: { bearer?: string; extra?: Record<string, string> } = {},
): Promise<Response> {
  return postForm(
    tokenUrl(system),
    {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: creds.client.id,
      client_secret: creds.clientSecret,
      ...options.extra,
    },
    options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` },
  );
}

export interface TokenResponse {
  token_type: string;
  expires_in: string | number;
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** TK-OK-01, TK-OK-02: a successful token response in the documented shape, with its `scope` (SC-04). */
export async function expectTokenResponse(res: Response): Promise<TokenResponse> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
  const body = JSON.parse(text) as TokenResponse;
  expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
  expect(body.token_type.toLowerCase()).toBe('bearer');
  expect(body.access_token).toMatch(/^lko_[0-9A-Za-z]{36}$/);
  expect(body.refresh_token).toMatch(/^lkr_[0-9A-Za-z]{36}$/);
  return body;
}

/**
 * A token endpoint error (status, error): JSON, no-store + Pragma (P-04), `{error}` with an
 * optional ASCII-safe description, and WWW-Authenticate only where asked for.
 */
export async function expectOAuthError(
  res: Response,
  status: number,
  error: string,
  options: { wwwAuthenticate?: string | null } = {},
): Promise<{ error: string; error_description?: string }> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
  expect(res.headers.get('www-authenticate')).toBe(options.wwwAuthenticate ?? null);
  expect(res.headers.get('location')).toBeNull();
  const body = JSON.parse(text) as { error: string; error_description?: string };
  expect(body.error).toBe(error);
  expect(Object.keys(body).every((key) => key === 'error' || key === 'error_description')).toBe(true);
  if (body.error_description !== undefined) expect(body.error_description).toMatch(SAFE_DESCRIPTION);
  expect(text).not.toMatch(/at .*\.ts:\d+/);
  return body;
}

/** The check the API runs on every call (DD-5: no cache), used to see whether a token still works. */
export async function accessTokenWorks(system: TestSystem, token: string): Promise<boolean> {
  try {
    await authenticateAccessToken(system.db, system.clock, token);
    return true;
  } catch {
    return false;
  }
}

export async function countRows(
  system: TestSystem,
  table: 'access_tokens' | 'refresh_tokens',
  where: { userId: string },
): Promise<number> {
  const row = await system.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', where.userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface GrantState {
  grantRevoked: boolean;
  accessTokens: number;
  refreshTokens: number;
}

/** What the database holds for the grant a code was issued under: side effects of an exchange. */
export async function grantOfCode(system: TestSystem, code: string): Promise<GrantState> {
  const grant = await system.db
    .selectFrom('authorization_codes as c')
    .innerJoin('grants as g', 'g.id', 'c.grant_id')
    .select(['g.id', 'g.revoked_at'])
    .where('c.code_hash', '=', digest(code))
    .executeTakeFirstOrThrow();
  const count = async (table: 'access_tokens' | 'refresh_tokens') => {
    const row = await system.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('grant_id', '=', grant.id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    grantRevoked: grant.revoked_at !== null,
    accessTokens: await count('access_tokens'),
    refreshTokens: await count('refresh_tokens'),
  };
}
