// Fixtures created through the domain core, for tests that need a user, a client or a token
// without driving the pages.
import {
  createClient,
  createPersonalAccessToken,
  createResourceServer,
  createUser,
  issueAuthorizationCode,
  redeemAuthorizationCode,
  s256,
  type Client,
  type ResourceServer,
  type User,
} from '@latchkey/core';
import { randomBytes } from 'node:crypto';
import { perFile } from './per-file.ts';
import type { TestSystem } from './system.ts';

let counter = 0;

/** A user as makeUser returns it: with the password, to sign in through the pages. */
export type TestUser = User & { password: string };

export async function makeUser(system: TestSystem, name = 'Ada Lovelace'): Promise<TestUser> {
  counter += 1;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const user = await createUser(system.db, system.clock, {
    email: `user${counter}-${randomBytes(3).toString('hex')}@example.test`,
    password,
    name,
  });
  return { ...user, password };
}

/**
 * Users of the file's system by role, made one after the other before its first test
 * (per-file.ts): `const { user, owner } = useUsers(system, { user: 'Ada Lovelace', owner: 'Olivia Owner' })`.
 */
export function useUsers<K extends string>(system: TestSystem, names: Record<K, string>): Record<K, TestUser> {
  return perFile(async () => {
    const users = {} as Record<K, TestUser>;
    for (const [role, name] of Object.entries(names) as [K, string][]) users[role] = await makeUser(system, name);
    return users;
  });
}

export async function makeClient(
  system: TestSystem,
  owner: User,
  options: {
    redirectUri?: string;
    redirectUris?: string[];
    postLogoutRedirectUri?: string;
    requirePkce?: boolean;
    name?: string;
  } = {},
): Promise<{ client: Client; clientSecret: string }> {
  return createClient(system.db, system.clock, {
    ownerId: owner.id,
    name: options.name ?? 'Example App',
    redirectUris: options.redirectUris ?? [options.redirectUri ?? 'https://client.example/cb'],
    postLogoutRedirectUri: options.postLogoutRedirectUri,
    requirePkce: options.requirePkce ?? false,
  });
}

export async function makePat(system: TestSystem, user: User, name = 'test token'): Promise<string> {
  const { token } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
    userId: user.id,
    name,
  });
  return token;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** A code as /oauth/authorize would issue it, without driving the pages. */
export async function makeCode(
  system: TestSystem,
  client: Client,
  user: User,
  options: { redirectUri?: string; codeChallenge?: string } = {},
): Promise<string> {
  return issueAuthorizationCode(system.db, system.clock, {
    client,
    userId: user.id,
    redirectUri: options.redirectUri ?? client.redirectUris[0]!,
    codeChallenge: options.codeChallenge ?? null,
  });
}

let resourceServers = 0;

/** An API beside the Latchkey API, registered as `resource create` does it (RS-07); its id is its tokens' audience. */
export async function makeResourceServer(system: TestSystem, name = 'Weather Service'): Promise<ResourceServer> {
  resourceServers += 1;
  return createResourceServer(system.db, system.clock, system.apiUrl, {
    uri: `https://rs${resourceServers}.example.test/api`,
    name,
  });
}

/**
 * An OAuth access token for `user` through `client`, as a code exchange issues it: for
 * `audience` (a resource server's id; the Latchkey API when left out), with `scopes` (the
 * client's default when left out).
 */
export async function makeAccessToken(
  system: TestSystem,
  client: Client,
  user: User,
  options: { audience?: string; scopes?: Parameters<typeof issueAuthorizationCode>[2]['scopes'] } = {},
): Promise<string> {
  const redirectUri = client.redirectUris[0]!;
  const { audience, scopes } = options;
  const code = await issueAuthorizationCode(system.db, system.clock, {
    client,
    userId: user.id,
    redirectUri,
    codeChallenge: null,
    ...(audience !== undefined && { audience }),
    ...(scopes !== undefined && { scopes }),
  });
  const pair = await redeemAuthorizationCode(
    system.db,
    system.clock,
    { tokenTtlSeconds: system.config.tokenTtlSeconds, refreshTokenTtlSeconds: system.config.refreshTokenTtlSeconds },
    { client, code, redirectUri, codeVerifier: undefined, ...(audience !== undefined && { audience }) },
  );
  return pair.accessToken;
}

/** return_to values that would leave the site (OR-01): after sign-in each must end at `/`. */
export const OFF_SITE_RETURN_PATHS = [
  'https://evil.example',
  '//evil.example',
  '/\\evil.example',
  'https:evil.example',
  'javascript:alert(1)',
  '%2F%2Fevil.example',
  '/.//evil.example',
];

/** How many rows a table holds: what a request stored, or did not (sessions, users). */
export async function countAllRows(system: TestSystem, table: 'sessions' | 'users'): Promise<number> {
  const row = await system.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
