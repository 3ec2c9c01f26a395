import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@latchkey/core';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import {
  accessTokenWorks,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  refreshWith,
  type ClientCredentialsFixture,
  type TokenResponse,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// DD-4's refresh-token reuse grace window, with the default REFRESH_REUSE_GRACE_SECONDS (30):
// an application that refreshes from several requests at once (Auth.js's rotation recipe does)
// keeps its grant; a reuse after the window, or of an older generation, still revokes it all.
let system: TestSystem;
let user: User;
let app: ClientCredentialsFixture;
let other: ClientCredentialsFixture;

beforeAll(async () => {
  system = await startSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: '10000' });
  const owner = await makeUser(system, 'Client Owner');
  user = await makeUser(system);
  app = await makeClient(system, owner);
  other = await makeClient(system, owner, { name: 'Other App', redirectUri: 'https://other.example/cb' });
});
afterAll(async () => {
  await system?.close();
});

async function freshPair(creds = app): Promise<TokenResponse> {
  return expectTokenResponse(await exchangeCode(system, creds, await makeCode(system, creds.client, user)));
}

async function familyIsDead(pair: TokenResponse): Promise<void> {
  expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
  await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
}

describe('RG refresh-token reuse grace window (REFRESH_REUSE_GRACE_SECONDS, default 30)', () => {
  it('RG-01 the default is 30 seconds', () => {
    expect(system.config.refreshReuseGraceSeconds).toBe(30);
  });

  it('RG-01 RT1 again 29 s after it was rotated: a fresh pair on the same grant, and the first pair keeps working', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    system.clock.advance(29_000);
    const again = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    expect(again.refresh_token).not.toBe(second.refresh_token);
    for (const pair of [second, again]) expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
    // Both refresh tokens rotate on as usual.
    const fromSecond = await expectTokenResponse(await refreshWith(system, app, second.refresh_token));
    expect(await accessTokenWorks(system, fromSecond.access_token)).toBe(true);
  });

  it('RG-02 10 parallel refreshes of one token inside the window all succeed, and every access token they give works', async () => {
    const first = await freshPair();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refreshWith(system, app, first.refresh_token)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const pairs = await Promise.all(answers.map(expectTokenResponse));
    expect(new Set(pairs.map((p) => p.access_token)).size).toBe(10);
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(10);
    for (const pair of pairs) expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
    // The access token the refreshed pair replaced is retired as with any rotation.
    expect(await accessTokenWorks(system, first.access_token)).toBe(false);
  });

  it('RG-03 a reuse after the window revokes the whole family, pairs issued in the window included', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    system.clock.advance(5_000);
    const inWindow = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    system.clock.advance(25_001); // 30.001 s after the rotation
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(second);
    await familyIsDead(inWindow);
  });

  it('RG-03 an older generation is reuse even inside the window: RT1 after RT2 was rotated to RT3 revokes everything', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const third = await expectTokenResponse(await refreshWith(system, app, second.refresh_token));
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(third);
  });

  it('RG-03 only the same client: another client presenting the token is invalid_grant and changes nothing', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    await expectOAuthError(await refreshWith(system, other, first.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(system, second.access_token)).toBe(true);
  });

  it('RG-03 a token the user revoked is not brought back by the window', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const revoke = await fetch(`${system.authUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: second.refresh_token,
        client_id: app.client.id,
        client_secret: app.clientSecret,
      }),
    });
    expect(revoke.status).toBe(200);
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
  });
});

describe('RG-04 REFRESH_REUSE_GRACE_SECONDS=0 turns the window off', () => {
  let strict: TestSystem;
  beforeAll(async () => {
    strict = await startSystem({ REFRESH_REUSE_GRACE_SECONDS: '0' });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('RG-04 RT1 again at once is reuse: the family is revoked', async () => {
    const owner = await makeUser(strict, 'Strict Owner');
    const person = await makeUser(strict, 'Strict User');
    const creds = await makeClient(strict, owner);
    const first = await expectTokenResponse(
      await exchangeCode(strict, creds, await makeCode(strict, creds.client, person)),
    );
    const second = await expectTokenResponse(await refreshWith(strict, creds, first.refresh_token));
    await expectOAuthError(await refreshWith(strict, creds, first.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(strict, second.access_token)).toBe(false);
  });
});
