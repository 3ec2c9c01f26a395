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

// Refresh-token inactivity (RT-11) and expired tokens on the refresh request (TK-RF-02,
// TK-RF-10), with lifetimes short enough to cross on the manual clock.
let short: TestSystem;
let shortApp: ClientCredentialsFixture;
let shortUser: User;

beforeAll(async () => {
  short = await startSystem({ REFRESH_TOKEN_TTL_SECONDS: '60', TOKEN_TTL_SECONDS: '30' });
  shortUser = await makeUser(short, 'Short Lived');
  shortApp = await makeClient(short, shortUser);
});
afterAll(async () => {
  await short.close();
});

async function shortPair(): Promise<TokenResponse> {
  const code = await makeCode(short, shortApp.client, shortUser);
  return expectTokenResponse(await exchangeCode(short, shortApp, code));
}

describe('RT-11 refresh token lifetime', () => {
  it('RT-11 each rotation restarts the inactivity period; idle past it the refresh token is invalid_grant', async () => {
    const first = await shortPair();
    short.clock.advance(59_000);
    const second = await expectTokenResponse(await refreshWith(short, shortApp, first.refresh_token));
    short.clock.advance(59_000);
    const third = await expectTokenResponse(await refreshWith(short, shortApp, second.refresh_token));
    short.clock.advance(61_000);
    await expectOAuthError(await refreshWith(short, shortApp, third.refresh_token), 400, 'invalid_grant');
  });

  it('TK-RF-02 an expired refresh token is invalid_grant exactly one second past its lifetime', async () => {
    const pair = await shortPair();
    short.clock.advance(60_000 + 1000);
    await expectOAuthError(await refreshWith(short, shortApp, pair.refresh_token), 400, 'invalid_grant');
  });

  it('TK-RF-10 body credentials plus Bearer with an EXPIRED access token: 200 (the usual reason to refresh)', async () => {
    const pair = await shortPair();
    expect(pair.expires_in).toBe('30');
    short.clock.advance(31_000);
    expect(await accessTokenWorks(short, pair.access_token)).toBe(false);
    const next = await expectTokenResponse(
      await refreshWith(short, shortApp, pair.refresh_token, { bearer: pair.access_token }),
    );
    expect(await accessTokenWorks(short, next.access_token)).toBe(true);
  });
});
