// Test fixtures for the account endpoints: tokens as the portal and as a third-party
// application would hold them, minted through the real code flow in core (no pages needed).
import {
  findClient,
  issueAuthorizationCode,
  redeemAuthorizationCode,
  type Client,
  type TokenLifetimes,
  type TokenPair,
  type User,
} from '@latchkey/core';
import { makeCode, pkcePair } from '#test/support/fixtures.ts';
import type { TestSystem } from '#test/support/system.ts';

export function lifetimesOf(system: TestSystem): TokenLifetimes {
  return {
    tokenTtlSeconds: system.config.tokenTtlSeconds,
    refreshTokenTtlSeconds: system.config.refreshTokenTtlSeconds,
  };
}

/** An access token of the portal's own first-party client, as the BFF holds it after sign-in. */
export async function issuePortalToken(system: TestSystem, user: User): Promise<string> {
  const client = await findClient(system.db, system.config.portal.clientId);
  if (!client) throw new Error('the portal client was not provisioned');
  const { verifier, challenge } = pkcePair();
  const redirectUri = system.config.portal.redirectUri;
  const code = await issueAuthorizationCode(system.db, system.clock, {
    client,
    userId: user.id,
    redirectUri,
    codeChallenge: challenge,
  });
  const pair = await redeemAuthorizationCode(system.db, system.clock, lifetimesOf(system), {
    client,
    code,
    redirectUri,
    codeVerifier: verifier,
  });
  return pair.accessToken;
}

/** A token pair of a third-party client the user authorized. */
export async function issueThirdPartyTokens(system: TestSystem, client: Client, user: User): Promise<TokenPair> {
  const code = await makeCode(system, client, user);
  return redeemAuthorizationCode(system.db, system.clock, lifetimesOf(system), {
    client,
    code,
    redirectUri: client.redirectUris[0]!,
    codeVerifier: undefined,
  });
}

export interface AccountCall {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Calls an account endpoint; `json` is sent as application/json. */
export async function callAccount(
  system: TestSystem,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {},
): Promise<AccountCall> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${system.authUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
