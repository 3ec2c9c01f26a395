// Fixtures of the device flow's tests: an opted-in client, the start request, the poll and the
// user's decision (the /device page is tested on its own; here core decides, as the page does).
import { expect } from 'vitest';
import {
  createClient,
  decideDeviceAuthorization,
  findPendingDeviceAuthorization,
  type Client,
  type User,
} from '@latchkey/core';
import type { TestSystem } from '#test/support/system.ts';
import { postForm, tokenUrl } from '../oauth-json/oauth-endpoint.fixture.ts';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceAuthorizationBody {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** A client of `owner` that opted in to the device grant: public (client_id only) unless `confidential`. */
export async function makeDeviceClient(
  system: TestSystem,
  owner: User,
  { confidential = false, deviceGrant = true } = {},
): Promise<{ client: Client; clientSecret: string | undefined }> {
  return createClient(system.db, system.clock, {
    ownerId: owner.id,
    name: 'Terminal App',
    redirectUris: ['https://client.example/cb'],
    public: !confidential,
    deviceGrant,
  });
}

export function deviceAuthorizationUrl(system: TestSystem): string {
  return `${system.authUrl}/oauth/device_authorization`;
}

export function startDeviceFlow(
  system: TestSystem,
  client: Client,
  extra: Record<string, string> = {},
): Promise<Response> {
  return postForm(deviceAuthorizationUrl(system), { client_id: client.id, ...extra });
}

/** Starts a flow and expects the RFC 8628 §3.2 answer. */
export async function startedDeviceFlow(
  system: TestSystem,
  client: Client,
  extra: Record<string, string> = {},
): Promise<DeviceAuthorizationBody> {
  const res = await startDeviceFlow(system, client, extra);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as DeviceAuthorizationBody;
}

export function pollDevice(system: TestSystem, client: Client, deviceCode: string): Promise<Response> {
  return postForm(tokenUrl(system), { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: client.id });
}

/** The user's answer on the verification page, through core (as the page calls it). */
export async function decide(system: TestSystem, userCode: string, user: User, approved: boolean): Promise<void> {
  const pending = await findPendingDeviceAuthorization(system.db, system.clock, userCode);
  expect(pending).toBeDefined();
  const decided = await decideDeviceAuthorization(system.db, system.clock, {
    id: pending!.id,
    userId: user.id,
    approved,
    authTime: system.clock.now(),
  });
  expect(decided).toBe(true);
}
