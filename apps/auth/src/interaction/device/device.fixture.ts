// Device authorizations for the verification page's tests, started through core as
// POST /oauth/device_authorization would, for a client that opted in to the grant.
import {
  createClient,
  startDeviceAuthorization,
  type Client,
  type StartedDeviceAuthorization,
  type User,
} from '@latchkey/core';
import type { Scope } from '@latchkey/contracts';
import { CookieJar, fetchPage, findForm, type PageResult } from '#test/support/browserless-flow.ts';
import type { TestSystem } from '#test/support/system.ts';

/** A public client (client_id only at the token endpoint) of `owner` that opted in to the device grant. */
export async function makeDeviceClient(system: TestSystem, owner: User, name = 'Example CLI'): Promise<Client> {
  const { client } = await createClient(system.db, system.clock, {
    ownerId: owner.id,
    name,
    redirectUris: ['https://client.example/cb'],
    public: true,
    deviceGrant: true,
  });
  return client;
}

/** The device's poll: POST /oauth/token with the device_code grant (RFC 8628 §3.4). */
export async function pollToken(
  system: TestSystem,
  client: Client,
  deviceCode: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${system.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: deviceCode,
      client_id: client.id,
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export function startDevice(
  system: TestSystem,
  client: Client,
  scopes: readonly Scope[] = ['openid', 'profile'],
): Promise<StartedDeviceAuthorization> {
  return startDeviceAuthorization(system.db, system.clock, { client, scopes, audience: 'latchkey_api' });
}

/** The device authorization's row, to see what a request changed (or did not). */
export async function deviceRow(system: TestSystem, clientId: string) {
  return system.db
    .selectFrom('device_authorizations')
    .select(['status', 'user_id'])
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
}

/** GET /device, then POST the code with the page's CSRF token (plus `overrides`). */
export async function enterCode(
  system: TestSystem,
  jar: CookieJar,
  userCode: string,
  options: { overrides?: Record<string, string | undefined>; headers?: Record<string, string> } = {},
): Promise<PageResult> {
  const page = await fetchPage(system, jar, '/device', { headers: options.headers });
  const fields = page.status === 200 ? findForm(page.html, '/device')!.fields : {};
  return fetchPage(system, jar, '/device', {
    form: { ...fields, user_code: userCode, ...options.overrides },
    headers: options.headers,
  });
}

/** Follows one redirect with the jar (the browser's GET of the Location). */
export function follow(system: TestSystem, jar: CookieJar, page: PageResult): Promise<PageResult> {
  if (page.location === undefined) throw new Error(`not a redirect (status ${page.status})`);
  return fetchPage(system, jar, page.location);
}

/** Posts the device consent page's decision. */
export function decide(
  system: TestSystem,
  jar: CookieJar,
  consent: PageResult,
  decision: 'approve' | 'deny',
  overrides: Record<string, string | undefined> = {},
): Promise<PageResult> {
  const form = findForm(consent.html, '/device/decision');
  if (!form) throw new Error(`no device decision form on the page (status ${consent.status})`);
  return fetchPage(system, jar, '/device/decision', { form: { ...form.fields, decision, ...overrides } });
}
