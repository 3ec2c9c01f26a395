import { describe, expect, it } from 'vitest';
import { listAuthorizedApplications, revokeApplicationAccess } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { perFile } from '#test/support/per-file.ts';
import {
  countRows,
  expectOAuthError,
  expectTokenResponse,
  postForm,
  tokenUrl,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import {
  decide,
  DEVICE_GRANT,
  makeDeviceClient,
  pollDevice,
  startedDeviceFlow,
  type DeviceAuthorizationBody,
} from './device-authorization.fixture.ts';

// Issue 33: the device code grant at the token endpoint (RFC 8628 §3.4–3.5), driven by the
// injectable clock; the user's decision is core's (the /device page has its own tests).
const { system, owner, user } = useTokenEndpoint();
const { device, otherDevice } = perFile(async () => ({
  device: (await makeDeviceClient(system, owner)).client,
  otherDevice: (await makeDeviceClient(system, owner)).client,
}));

const seconds = (n: number) => system.clock.advance(n * 1000);

async function start(extra: Record<string, string> = {}): Promise<DeviceAuthorizationBody> {
  return startedDeviceFlow(system, device, extra);
}

async function graphqlName(accessToken: string): Promise<{ status: number; name?: string }> {
  const res = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  const body = (await res.json()) as { data?: { profile?: { name: string } } };
  return { status: res.status, name: body.data?.profile?.name };
}

describe('RFC 8628 §3.4–3.5 polling the token endpoint', () => {
  it('DV-05 RFC 8628 §3.5: authorization_pending while the user has not decided, polled at the interval', async () => {
    const started = await start();
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'authorization_pending');
    seconds(5);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'authorization_pending');
  });

  it('DV-05 RFC 8628 §3.5: polling sooner than the interval is slow_down, and the interval grows by 5 s each time', async () => {
    const started = await start();
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'authorization_pending');
    seconds(4);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'slow_down');
    // Now 10 s: 5 s after the last poll is too soon again, and the interval becomes 15 s.
    seconds(5);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'slow_down');
    seconds(14);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'slow_down');
    // 20 s now; waiting it out is pending again, and the interval stays.
    seconds(20);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'authorization_pending');
    seconds(19);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'slow_down');
    const row = await system.db
      .selectFrom('device_authorizations')
      .select('interval_seconds')
      .where('device_code_hash', '=', digest(started.device_code))
      .executeTakeFirstOrThrow();
    expect(row.interval_seconds).toBe(25);
  });

  it('DV-06 approved: the usual token response, refresh token included; the access token works at /graphql and the refresh token refreshes', async () => {
    const started = await start();
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'authorization_pending');
    await decide(system, started.user_code, user, true);
    seconds(5);
    const tokens = await expectTokenResponse(await pollDevice(system, device, started.device_code));
    expect(await graphqlName(tokens.access_token)).toEqual({ status: 200, name: user.name });
    const refreshed = await postForm(tokenUrl(system), {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: device.id,
    });
    await expectTokenResponse(refreshed);
  });

  it('DV-06 a device sign-in is an authorized application; Revoke access ends its tokens', async () => {
    const started = await start();
    await decide(system, started.user_code, user, true);
    const tokens = await expectTokenResponse(await pollDevice(system, device, started.device_code));
    const apps = await listAuthorizedApplications(system.db, system.clock, user.id, device.id);
    expect(apps.map((app) => app.clientId)).toEqual([device.id]);
    await revokeApplicationAccess(system.db, system.clock, user.id, device.id);
    expect((await graphqlName(tokens.access_token)).status).toBe(401);
  });

  it('DV-06 OI-01 with openid the response carries an ID token for the approving user', async () => {
    const started = await start({ scope: 'openid profile' });
    await decide(system, started.user_code, user, true);
    const res = await pollDevice(system, device, started.device_code);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id_token?: string; scope: string };
    expect(body.scope).toBe('openid profile');
    const claims = JSON.parse(Buffer.from(body.id_token!.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ sub: user.id, aud: device.id });
    expect(claims.nonce).toBeUndefined();
  });

  it('DV-11 RFC 8628 §3.5: denied is access_denied, and stays so', async () => {
    const started = await start();
    await decide(system, started.user_code, user, false);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'access_denied');
    seconds(5);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'access_denied');
  });

  it('DV-12 RFC 8628 §3.5: after 10 minutes the code is expired_token, approved or not', async () => {
    const pending = await start();
    const approved = await start();
    seconds(599);
    await expectOAuthError(await pollDevice(system, device, pending.device_code), 400, 'authorization_pending');
    await decide(system, approved.user_code, user, true);
    seconds(1);
    await expectOAuthError(await pollDevice(system, device, pending.device_code), 400, 'expired_token');
    await expectOAuthError(await pollDevice(system, device, approved.device_code), 400, 'expired_token');
  });

  it('DV-08 a device code redeemed twice in parallel gives one token pair and one invalid_grant; later polls are invalid_grant', async () => {
    const started = await start();
    await decide(system, started.user_code, user, true);
    const before = {
      access: await countRows(system, 'access_tokens', { userId: user.id }),
      refresh: await countRows(system, 'refresh_tokens', { userId: user.id }),
    };
    const answers = await Promise.all([
      pollDevice(system, device, started.device_code),
      pollDevice(system, device, started.device_code),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400]);
    const failed = answers.find((a) => a.status === 400)!;
    await expectOAuthError(failed, 400, 'invalid_grant');
    await expectTokenResponse(answers.find((a) => a.status === 200)!);
    seconds(5);
    await expectOAuthError(await pollDevice(system, device, started.device_code), 400, 'invalid_grant');
    expect(await countRows(system, 'access_tokens', { userId: user.id })).toBe(before.access + 1);
    expect(await countRows(system, 'refresh_tokens', { userId: user.id })).toBe(before.refresh + 1);
  });

  it('DV-07 an unknown device code, or another client’s, is invalid_grant and leaves the code usable by its own client', async () => {
    await expectOAuthError(await pollDevice(system, device, 'A'.repeat(43)), 400, 'invalid_grant');
    const started = await start();
    await decide(system, started.user_code, user, true);
    await expectOAuthError(await pollDevice(system, otherDevice, started.device_code), 400, 'invalid_grant');
    await expectTokenResponse(await pollDevice(system, device, started.device_code));
  });

  it('DV-05 a missing device_code is invalid_request; the unsupported_grant_type message lists the device grant', async () => {
    await expectOAuthError(
      await postForm(tokenUrl(system), { grant_type: DEVICE_GRANT, client_id: device.id }),
      400,
      'invalid_request',
    );
    const body = await expectOAuthError(
      await postForm(tokenUrl(system), { grant_type: 'password', client_id: device.id }),
      400,
      'unsupported_grant_type',
    );
    expect(body.error_description).toContain(DEVICE_GRANT);
  });
});
