// Issue 33: a client opts in to the device authorization grant (RFC 8628) through the account
// API, at creation or later (DV-24). What the grant does is tested with its endpoints.
import { beforeAll, describe, expect, it } from 'vitest';
import { useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { expectOAuthError, postForm } from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import {
  deviceAuthorizationUrl,
  pollDevice,
  startedDeviceFlow,
} from '../../endpoints/device-authorization/device-authorization.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

const system = useSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '1000' });
const { alice } = useUsers(system, { alice: 'Alice' });
let token: string;

beforeAll(async () => {
  token = await issuePortalToken(system, alice);
});

const register = (json: Record<string, unknown>) => callAccount(system, 'POST', '/account/clients', { token, json });
const edit = (id: string, json: Record<string, unknown>) =>
  callAccount(system, 'PATCH', `/account/clients/${id}`, { token, json });
const read = (id: string) => callAccount(system, 'GET', `/account/clients/${id}`, { token });

/** POST /oauth/device_authorization as the client: client_id alone, or with its secret. */
const startDevice = (clientId: string, clientSecret?: string) =>
  postForm(deviceAuthorizationUrl(system), {
    client_id: clientId,
    ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
  });

async function registered(json: Record<string, unknown>): Promise<{ id: string; secret: string | undefined }> {
  const res = await register({ name: 'Terminal App', redirect_uri: 'http://127.0.0.1/callback', ...json });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.client.client_id, secret: res.body.client_secret };
}

async function clientCount(): Promise<number> {
  return (await system.db.selectFrom('clients').select('id').execute()).length;
}

describe('DV-24 device_grant in the account API', () => {
  it('DV-24 `device_grant: true` at creation opts the client in: every representation says so and /oauth/device_authorization answers 200', async () => {
    const res = await register({
      name: 'Terminal App',
      redirect_uri: 'http://127.0.0.1/callback',
      public: true,
      device_grant: true,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client).toMatchObject({ public: true, device_grant: true });
    const id: string = res.body.client.client_id;
    expect((await read(id)).body.device_grant).toBe(true);
    expect((await callAccount(system, 'GET', '/account/clients', { token })).body).toContainEqual(
      expect.objectContaining({ id, device_grant: true }),
    );
    const started = await startDevice(id);
    expect(started.status, await started.clone().text()).toBe(200);
    expect(await started.json()).toMatchObject({ device_code: expect.any(String), user_code: expect.any(String) });

    // A confidential client opts in the same way and authenticates with its secret.
    const confidential = await registered({ redirect_uri: 'https://server.example/cb', device_grant: true });
    expect((await startDevice(confidential.id, confidential.secret)).status).toBe(200);
  });

  it('DV-24 `device_grant` false or left out: the client is not opted in and the device endpoint answers unauthorized_client', async () => {
    for (const json of [{ device_grant: false }, {}]) {
      const res = await register({ name: 'Web App', redirect_uri: 'http://127.0.0.1/callback', public: true, ...json });
      expect(res.status, res.text).toBe(201);
      expect(res.body.client.device_grant).toBe(false);
      expect((await read(res.body.client.client_id)).body.device_grant).toBe(false);
      await expectOAuthError(await startDevice(res.body.client.client_id), 400, 'unauthorized_client');
    }
  });

  it('DV-24 PATCH opts a client in and out; a PATCH without the field leaves it as it is', async () => {
    const { id } = await registered({ public: true });
    await expectOAuthError(await startDevice(id), 400, 'unauthorized_client');

    const optedIn = await edit(id, { device_grant: true });
    expect(optedIn.status, optedIn.text).toBe(200);
    expect(optedIn.body.device_grant).toBe(true);
    const renamed = await edit(id, { name: 'Renamed Terminal' });
    expect(renamed.body).toMatchObject({ name: 'Renamed Terminal', device_grant: true });
    const flow = await startedDeviceFlow(system, { id } as never);

    const optedOut = await edit(id, { device_grant: false });
    expect(optedOut.status, optedOut.text).toBe(200);
    expect(optedOut.body.device_grant).toBe(false);
    expect((await read(id)).body.device_grant).toBe(false);
    await expectOAuthError(await startDevice(id), 400, 'unauthorized_client');
    // A device code given out before the opt-out is not redeemed after it (DV-09 checks at each poll).
    await expectOAuthError(await pollDevice(system, { id } as never, flow.device_code), 400, 'unauthorized_client');
  });

  it('DV-24 a `device_grant` that is not a boolean is 400 naming the field, at creation and on edit, and nothing changes', async () => {
    const { id } = await registered({ public: true, device_grant: true });
    const before = await clientCount();
    for (const value of ['true', 1, 0, null, 'yes', [true], {}]) {
      const created = await register({ name: 'Odd', redirect_uri: 'http://127.0.0.1/cb', device_grant: value });
      expect(created.status, JSON.stringify(value)).toBe(400);
      expect(created.body).toEqual({
        error: 'validation_failed',
        field: 'device_grant',
        error_description: 'device_grant must be true or false.',
      });
      const edited = await edit(id, { name: 'Not this', device_grant: value });
      expect(edited.status, JSON.stringify(value)).toBe(400);
      expect(edited.body).toMatchObject({ error: 'validation_failed', field: 'device_grant' });
    }
    expect(await clientCount()).toBe(before);
    expect((await read(id)).body).toMatchObject({ name: 'Terminal App', device_grant: true });
  });
});
