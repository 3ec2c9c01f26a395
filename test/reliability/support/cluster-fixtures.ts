// Users, clients, tokens and codes made through @latchkey/core on the cluster's PostgreSQL
// database (the same functions the servers and the CLI use), and the OAuth calls a third-party
// client makes, for scenarios that need many credentials quickly.
import { randomBytes } from 'node:crypto';
import {
  createClient,
  createPersonalAccessToken,
  createUser,
  issueAuthorizationCode,
  systemClock,
  type Client,
  type User,
} from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { send, type Sample } from './load-generator.ts';

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
const REDIRECT_URI = 'https://client.example/cb';

export type TestUser = User & { password: string };

export async function makeUser(db: Db, name = 'Load Tester'): Promise<TestUser> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await createUser(db, systemClock, {
    email: `r-${randomBytes(6).toString('hex')}@example.test`,
    password,
    name,
  });
  return { ...user, password };
}

export interface TestClient {
  client: Client;
  clientSecret: string;
}

/** A confidential third-party client without PKCE, so codes can be made without a challenge. */
export async function makeClient(db: Db, owner: User, name = 'Load Test App'): Promise<TestClient> {
  return createClient(db, systemClock, { ownerId: owner.id, name, redirectUris: [REDIRECT_URI], requirePkce: false });
}

export async function makePat(db: Db, user: User, name = 'load token'): Promise<{ token: string; id: string }> {
  const created = await createPersonalAccessToken(db, systemClock, ONE_YEAR_SECONDS, { userId: user.id, name });
  return { token: created.token, id: created.summary.id };
}

/** A code as /oauth/authorize would issue it after the user's consent. */
export function makeCode(db: Db, client: TestClient, user: User): Promise<string> {
  return issueAuthorizationCode(db, systemClock, {
    client: client.client,
    userId: user.id,
    redirectUri: REDIRECT_URI,
    codeChallenge: null,
  });
}

/** The form of POST /oauth/token for an authorization code (client_secret_post). */
export function codeExchangeBody(client: TestClient, code: string): string {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: client.client.id,
    client_secret: client.clientSecret,
  }).toString();
}

export function refreshBody(client: TestClient, refreshToken: string): string {
  return new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.client.id,
    client_secret: client.clientSecret,
  }).toString();
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } as const;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** The token pair in a 200 answer of /oauth/token, or undefined. */
export function pairOf(sample: Sample): TokenPair | undefined {
  if (sample.status !== 200) return undefined;
  const body = JSON.parse(sample.body) as { access_token?: string; refresh_token?: string };
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string') return undefined;
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** Issues a code and exchanges it at `authUrl`: a live OAuth token pair of `client` for `user`. */
export async function makeTokenPair(db: Db, authUrl: string, client: TestClient, user: User): Promise<TokenPair> {
  const code = await makeCode(db, client, user);
  const answer = await send({ url: `${authUrl}/oauth/token`, headers: FORM, body: codeExchangeBody(client, code) });
  const pair = pairOf(answer);
  if (!pair) throw new Error(`code exchange failed: ${answer.status} ${answer.body}`);
  return pair;
}

/** A GraphQL call as a third-party client makes it. */
export function graphqlCall(apiUrl: string, token: string, tag = '') {
  return {
    url: `${apiUrl}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: '{"query":"{ profile { name } }"}',
    tag,
  };
}
