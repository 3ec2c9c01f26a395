// Shared setup and assertions for the authorization endpoint's and the pages' tests.
import { expect } from 'vitest';
import { ensureFirstPartyClient, type Client } from '@latchkey/core';
import type { PageResult } from '#test/support/browserless-flow.ts';
import {
  authorizeViaPages,
  parseAuthorizationRedirect,
  type AuthorizationResponse,
  type CookieJar,
} from '#test/support/browserless-flow.ts';
import { makeClient, makeUser, type TestUser } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import type { TestSystem } from '#test/support/system.ts';

export const REDIRECT_URI = 'https://client.example/cb';

/**
 * A user, their client at REDIRECT_URI, and a browser signed in as them that has consented to
 * it, made before the file's first test (per-file.ts): a request that passes every check gets a
 * code at once.
 */
export function useConsentedBrowser(system: TestSystem): { user: TestUser; client: Client; jar: CookieJar } {
  return perFile(async () => {
    const user = await makeUser(system);
    const { client } = await makeClient(system, user, { redirectUri: REDIRECT_URI });
    const { jar } = await authorizeViaPages(system, { user, clientId: client.id, redirectUri: REDIRECT_URI });
    return { user, client, jar };
  });
}

/** A client the service provisions itself (no owner, first party, PKCE required) at REDIRECT_URI. */
export async function provisionClient(system: TestSystem, id: string, name: string): Promise<void> {
  await ensureFirstPartyClient(system.db, system.clock, {
    id,
    secret: 'unused-secret',
    name,
    redirectUri: REDIRECT_URI,
    postLogoutRedirectUri: REDIRECT_URI,
  });
}

/** Authorization codes in the database: the side effect every negative test checks. */
export async function countCodes(system: TestSystem): Promise<number> {
  const row = await system.db
    .selectFrom('authorization_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** CJ-01, CJ-02, RF-01: the headers every HTML page of the server carries. */
export function expectPageSecurityHeaders(page: Pick<PageResult, 'headers'>, formActionOrigin?: string): void {
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  // No third-party origin anywhere; form-action may name the verified client origin (CJ-04).
  for (const directive of csp.split(';').map((d) => d.trim().split(/\s+/))) {
    const [name, ...sources] = directive;
    const allowed = name === 'form-action' && formActionOrigin ? ["'self'", formActionOrigin] : ["'self'", "'none'"];
    for (const source of sources) expect(allowed).toContain(source);
  }
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('access-control-allow-origin')).toBeNull();
}

/** An error page: HTML, no Location, no-store, the CJ-01 headers. */
export function expectErrorPage(page: PageResult, status = 400): void {
  expect(page.status).toBe(status);
  expect(page.location).toBeUndefined();
  expect(page.headers.get('location')).toBeNull();
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expectPageSecurityHeaders(page);
  expect(page.html).not.toMatch(/at .+\.ts:\d+/);
}

/** An error redirect: 302/303 to the registered URI with error, state (exact) and iss. */
export function expectErrorRedirect(
  system: TestSystem,
  page: PageResult,
  redirectUri: string,
  error: string,
  state?: string,
): AuthorizationResponse {
  expect([302, 303]).toContain(page.status);
  expect(page.location?.startsWith(`${redirectUri}?`)).toBe(true);
  const response = parseAuthorizationRedirect(page.location!);
  expect(response.error).toBe(error);
  expect(response.code).toBeUndefined();
  expect(response.iss).toBe(system.authUrl);
  if (state === undefined) expect(response.state).toBeUndefined();
  else expect(response.state).toBe(state);
  expect(response.errorDescription ?? '').toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/);
  return response;
}
