// What the registration tests (DR-*) share: RFC 7591 and RFC 7592 requests over real HTTP, the
// sign-in of a registered client through the real pages, and the checks of its answers.
import { findClient, type Client } from '@latchkey/core';
import { expect } from 'vitest';
import { authorizeViaPages } from '#test/support/browserless-flow.ts';
import { makeUser, pkcePair } from '#test/support/fixtures.ts';
import type { TestSystem } from '#test/support/system.ts';
import { postGraphql } from '../../../../api/src/testing/post-graphql.ts';
import {
  basicAuth,
  expectTokenResponse,
  postForm,
  publicTokenRequest,
  SAFE_DESCRIPTION,
  tokenUrl,
  type TokenResponse,
} from '../oauth-json/oauth-endpoint.fixture.ts';

export const PUBLIC_REDIRECT = 'http://127.0.0.1/callback';
export const CONFIDENTIAL_REDIRECT = 'https://dcr-app.example/cb';

/** RFC 7591 §3.2.1 as this server answers it; secrets and tokens only where they are given out. */
export interface Registration {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  scope: string;
  application_type?: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  registration_access_token?: string;
  registration_client_uri: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export function registerUrl(system: TestSystem): string {
  return `${system.authUrl}/oauth/register`;
}

/** POST /oauth/register with a JSON body (a string is sent as is), and any headers. */
export async function postRegistration(
  system: TestSystem,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(registerUrl(system), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  return answerOf(response);
}

/** A request to a registration_client_uri (RFC 7592 §2) with the registration access token, if given. */
export async function manageRegistration(
  uri: string,
  method: string,
  token: string | undefined,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(uri, {
    method,
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers },
    redirect: 'manual',
  });
  return answerOf(response);
}

export const publicMetadata = (extra: Record<string, unknown> = {}) => ({
  client_name: 'Agent CLI',
  redirect_uris: [PUBLIC_REDIRECT],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  application_type: 'native',
  ...extra,
});

export const confidentialMetadata = (extra: Record<string, unknown> = {}) => ({
  client_name: 'Hosted Agent',
  client_uri: 'https://dcr-app.example/',
  redirect_uris: [CONFIDENTIAL_REDIRECT],
  token_endpoint_auth_method: 'client_secret_basic',
  ...extra,
});

/** A registration that must succeed: 201, JSON, no-store, and the fields of RFC 7591 §3.2.1. */
export async function register(
  system: TestSystem,
  metadata: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Registration> {
  const answer = await postRegistration(system, metadata, headers);
  expect(answer.status, answer.text).toBe(201);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('pragma')).toBe('no-cache');
  return answer.body as Registration;
}

/** RFC 7591 §3.2.2 (DR-05) or RFC 6750 (DR-06, DR-13): JSON `{error, error_description}`, no-store, no Location. */
export function expectRegistrationError(answer: Answer, status: number, error: string): string {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('location')).toBeNull();
  expect(Object.keys(answer.body as object).sort()).toEqual(['error', 'error_description']);
  expect(answer.body.error).toBe(error);
  expect(answer.body.error_description).toMatch(SAFE_DESCRIPTION);
  return answer.body.error_description as string;
}

export async function countClients(system: TestSystem): Promise<number> {
  const row = await system.db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function clientOf(system: TestSystem, registration: Registration): Promise<Client> {
  const client = await findClient(system.db, registration.client_id);
  if (!client) throw new Error(`no client ${registration.client_id}`);
  return client;
}

/**
 * A new user signs in to the registered client through the real pages (PKCE S256 always, as a
 * public client must), Allows, and the client exchanges the code: with its client_id alone
 * (public) or its secret (Basic, or in the body with `secretInBody`).
 */
export async function signInWith(
  system: TestSystem,
  registration: Registration,
  options: { secretInBody?: boolean } = {},
): Promise<TokenResponse> {
  const client = await clientOf(system, registration);
  const redirectUri = registration.redirect_uris[0]!;
  const { verifier, challenge } = pkcePair();
  const result = await authorizeViaPages(system, {
    clientId: registration.client_id,
    redirectUri,
    state: 'dr-state',
    codeChallenge: challenge,
    user: await makeUser(system, 'Dana Dynamic'),
  });
  expect(result.code, result.location).toBeDefined();
  const exchange = {
    grant_type: 'authorization_code',
    code: result.code!,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  };
  if (registration.client_secret === undefined) {
    return expectTokenResponse(await publicTokenRequest(system, client, exchange));
  }
  if (options.secretInBody) {
    return expectTokenResponse(
      await postForm(tokenUrl(system), {
        ...exchange,
        client_id: registration.client_id,
        client_secret: registration.client_secret,
      }),
    );
  }
  return expectTokenResponse(
    await postForm(tokenUrl(system), exchange, {
      authorization: basicAuth(registration.client_id, registration.client_secret),
    }),
  );
}

/** `{ profile { name } }` at the API with the token: the name, or undefined when refused. */
export async function profileAtApi(system: TestSystem, accessToken: string): Promise<string | undefined> {
  const answer = await postGraphql(system.apiUrl, { token: accessToken });
  return answer.status === 200 ? (answer.json?.data?.profile?.name as string | undefined) : undefined;
}
