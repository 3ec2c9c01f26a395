import { describe, expect, it } from 'vitest';
import { perFile } from '#test/support/per-file.ts';
import { expectOAuthError, postForm, useTokenEndpoint } from '../oauth-json/oauth-endpoint.fixture.ts';
import {
  decide,
  deviceAuthorizationUrl,
  makeDeviceClient,
  pollDevice,
  startDeviceFlow,
  startedDeviceFlow,
} from './device-authorization.fixture.ts';

// Issue 33: POST /oauth/device_authorization (RFC 8628 §3.1–3.2).
const { system, owner, user } = useTokenEndpoint();
const { device, confidential, notOptedIn } = perFile(async () => ({
  device: (await makeDeviceClient(system, owner)).client,
  confidential: await makeDeviceClient(system, owner, { confidential: true }),
  notOptedIn: (await makeDeviceClient(system, owner, { deviceGrant: false })).client,
}));

describe('RFC 8628 §3.1–3.2 device authorization request', () => {
  it('DV-03 RFC 8628 §3.2: 200 JSON no-store with both codes, the verification URIs, 600 s and a 5 s interval', async () => {
    const res = await startDeviceFlow(system, device);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ['device_code', 'user_code', 'verification_uri', 'verification_uri_complete', 'expires_in', 'interval'].sort(),
    );
    expect(body.device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(body.verification_uri).toBe(`${system.config.auth.url}/device`);
    expect(body.verification_uri_complete).toBe(
      `${system.config.auth.url}/device?user_code=${String(body.user_code).replace('-', '')}`,
    );
    expect(body.expires_in).toBe(600);
    expect(body.interval).toBe(5);
  });

  it('DV-03 a confidential client authenticates with its secret; a wrong or missing one is invalid_client', async () => {
    const { client, clientSecret } = confidential;
    const ok = await postForm(deviceAuthorizationUrl(system), { client_id: client.id, client_secret: clientSecret! });
    expect(ok.status).toBe(200);
    await expectOAuthError(
      await postForm(deviceAuthorizationUrl(system), { client_id: client.id, client_secret: 'lks_wrong' }),
      401,
      'invalid_client',
    );
    await expectOAuthError(await startDeviceFlow(system, client), 401, 'invalid_client');
    await expectOAuthError(await postForm(deviceAuthorizationUrl(system), { scope: 'profile' }), 401, 'invalid_client');
  });

  it('DV-09 a client that did not opt in to the device grant is unauthorized_client, at both endpoints', async () => {
    await expectOAuthError(await startDeviceFlow(system, notOptedIn), 400, 'unauthorized_client');
    // A device code of another client, presented by the one not opted in: refused before it is read.
    const started = await startedDeviceFlow(system, device);
    await expectOAuthError(await pollDevice(system, notOptedIn, started.device_code), 400, 'unauthorized_client');
    expect(
      await system.db.selectFrom('device_authorizations').select('id').where('client_id', '=', notOptedIn.id).execute(),
    ).toEqual([]);
  });

  it('DV-10 scope is checked as at /oauth/authorize (invalid_scope), resource as RFC 8707 (invalid_target)', async () => {
    await expectOAuthError(await startDeviceFlow(system, device, { scope: 'profile nonsense' }), 400, 'invalid_scope');
    await expectOAuthError(await startDeviceFlow(system, device, { scope: 'account' }), 400, 'invalid_scope');
    await expectOAuthError(
      await startDeviceFlow(system, device, { resource: 'https://unknown.example/api' }),
      400,
      'invalid_target',
    );
    await expectOAuthError(await startDeviceFlow(system, device, { resource: 'not a uri' }), 400, 'invalid_target');
    await expectOAuthError(
      await postForm(deviceAuthorizationUrl(system), `client_id=${device.id}&resource=a&resource=b`),
      400,
      'invalid_target',
    );
    // The scopes asked for are what the approved token holds; the API named by its URL is the default audience.
    const started = await startedDeviceFlow(system, device, { scope: 'email', resource: system.apiUrl });
    await decide(system, started.user_code, user, true);
    const body = (await (await pollDevice(system, device, started.device_code)).json()) as { scope: string };
    expect(body.scope).toBe('email');
  });

  it('DV-04 the device code and the user code are stored only as SHA-256 digests', async () => {
    const started = await startedDeviceFlow(system, device);
    const text = await system.databaseText();
    expect(text).not.toContain(started.device_code);
    expect(text).not.toContain(started.user_code);
    expect(text).not.toContain(started.user_code.replace('-', ''));
  });

  it('DV-03 other methods are 405; a JSON body is refused as at the token endpoint', async () => {
    const get = await fetch(deviceAuthorizationUrl(system));
    expect(get.status).toBe(405);
    const json = await fetch(deviceAuthorizationUrl(system), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: device.id }),
    });
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.status).toBeLessThan(500);
  });
});
