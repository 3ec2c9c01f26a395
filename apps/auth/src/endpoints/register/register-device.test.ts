// Issue 33: a client that registers itself (RFC 7591) opts in to the device authorization grant
// (RFC 8628) by listing it in `grant_types` (DV-26), on both engines.
import { describe, expect, it } from 'vitest';
import { makeUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { expectOAuthError, expectTokenResponse, postForm } from '../oauth-json/oauth-endpoint.fixture.ts';
import {
  decide,
  DEVICE_GRANT,
  deviceAuthorizationUrl,
  pollDevice,
  startedDeviceFlow,
} from '../device-authorization/device-authorization.fixture.ts';
import {
  clientOf,
  confidentialMetadata,
  countClients,
  expectRegistrationError,
  manageRegistration,
  postRegistration,
  publicMetadata,
  register,
} from './register.fixture.ts';

const system = useSystem({ DYNAMIC_CLIENT_REGISTRATION: 'open', RATE_LIMIT_REGISTER_PER_HOUR: '10000' });

const WITH_DEVICE = ['authorization_code', 'refresh_token', DEVICE_GRANT];

describe('DV-26 grant_types at /oauth/register', () => {
  it('DV-26 a client listing the device grant gets it: the answer and the RFC 7592 read list it, and it signs a user in on a device', async () => {
    const registration = await register(system, publicMetadata({ grant_types: WITH_DEVICE }));
    expect(registration.grant_types).toEqual(WITH_DEVICE);
    const client = await clientOf(system, registration);
    expect(client).toMatchObject({ deviceGrant: true, public: true, registration: 'dynamic' });
    const read = await manageRegistration(
      registration.registration_client_uri,
      'GET',
      registration.registration_access_token,
    );
    expect(read.status, read.text).toBe(200);
    expect(read.body.grant_types).toEqual(WITH_DEVICE);

    // The whole grant with client_id alone: started, approved, redeemed for the usual tokens.
    const started = await startedDeviceFlow(system, client, { scope: 'profile' });
    await decide(system, started.user_code, await makeUser(system, 'Dana Device'), true);
    const tokens = await expectTokenResponse(await pollDevice(system, client, started.device_code));
    expect(tokens.refresh_token).toBeDefined();
  });

  it('DV-26 a confidential client listing it authenticates with its secret at the device endpoint', async () => {
    const registration = await register(
      system,
      confidentialMetadata({ grant_types: [DEVICE_GRANT, 'authorization_code'] }),
    );
    expect(registration.grant_types).toEqual(WITH_DEVICE);
    const res = await postForm(deviceAuthorizationUrl(system), {
      client_id: registration.client_id,
      client_secret: registration.client_secret!,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('DV-26 without it in grant_types (or with no grant_types) a client has no device grant: unauthorized_client', async () => {
    for (const metadata of [publicMetadata(), publicMetadata({ grant_types: undefined }), confidentialMetadata()]) {
      const registration = await register(system, metadata);
      expect(registration.grant_types).toEqual(['authorization_code', 'refresh_token']);
      const client = await clientOf(system, registration);
      expect(client.deviceGrant).toBe(false);
      const read = await manageRegistration(
        registration.registration_client_uri,
        'GET',
        registration.registration_access_token,
      );
      expect(read.body.grant_types).toEqual(['authorization_code', 'refresh_token']);
      const form: Record<string, string> = { client_id: registration.client_id };
      if (registration.client_secret !== undefined) form.client_secret = registration.client_secret;
      await expectOAuthError(await postForm(deviceAuthorizationUrl(system), form), 400, 'unauthorized_client');
    }
  });

  it('DV-26 the device grant without authorization_code, or another URN grant, is invalid_client_metadata; nothing is stored', async () => {
    const before = await countClients(system);
    for (const grants of [
      [DEVICE_GRANT],
      [DEVICE_GRANT, 'refresh_token'],
      ['authorization_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
      ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code2'],
    ]) {
      const answer = await postRegistration(system, publicMetadata({ grant_types: grants }));
      expectRegistrationError(answer, 400, 'invalid_client_metadata');
    }
    expect(await countClients(system)).toBe(before);
  });
});
