import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateAccessToken, revokeAccessToken, revokeClient } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { makeClient, makeCode } from '#test/support/fixtures.ts';
import type { TestSystem } from '#test/support/system.ts';
import {
  accessTokenWorks,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  makeScopedCode,
  postForm,
  refreshWith,
  tokenUrl,
  type ClientCredentialsFixture,
  type TokenResponse,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

// RFC 6749 §6 refresh with rotation and strict reuse detection (DD-4, D-4), and the documented
// refresh request that carries `Authorization: Bearer` (D-2). This system runs with the reuse
// grace window off (REFRESH_REUSE_GRACE_SECONDS=0, RG-04): every reuse revokes the family, as
// after the window; refresh-grace.test.ts tests the window itself (RG-01..RG-03).
// RT-01..RT-12, TK-RF-*.
const { system, owner, user, app, other } = useTokenEndpoint({ REFRESH_REUSE_GRACE_SECONDS: '0' });
/** Every credential handed out in this file, for the log check at the end (RF-04). */
const issued: string[] = [];

beforeAll(() => {
  issued.push(app.clientSecret, other.clientSecret);
});

async function freshPair(sys: TestSystem = system, creds: ClientCredentialsFixture = app): Promise<TokenResponse> {
  const code = await makeCode(sys, creds.client, user);
  const pair = await expectTokenResponse(await exchangeCode(sys, creds, code));
  issued.push(code, pair.access_token, pair.refresh_token);
  return pair;
}

async function refreshOk(
  rt: string,
  options: Parameters<typeof refreshWith>[3] = {},
  creds = app,
  sys = system,
): Promise<TokenResponse> {
  const pair = await expectTokenResponse(await refreshWith(sys, creds, rt, options));
  issued.push(pair.access_token, pair.refresh_token);
  return pair;
}

async function familyIsDead(pair: TokenResponse, creds = app, sys = system): Promise<void> {
  expect(await accessTokenWorks(sys, pair.access_token)).toBe(false);
  await expectOAuthError(await refreshWith(sys, creds, pair.refresh_token), 400, 'invalid_grant');
}

describe('RFC 6749 §6 refresh token rotation', () => {
  it('RT-01 refreshing gives a new access token and a new refresh token, Bearer, digit-string expires_in, no-store', async () => {
    const first = await freshPair();
    const second = await refreshOk(first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.token_type).toBe('Bearer');
    expect(second.expires_in).toBe(String(system.config.tokenTtlSeconds));
    expect(await accessTokenWorks(system, second.access_token)).toBe(true);
    // One live pair per grant: rotation retires the previous access token.
    expect(await accessTokenWorks(system, first.access_token)).toBe(false);
  });

  it('RT-02 RT1 again after RT2 was issued: invalid_grant, and RT2 and AT2 are revoked with the family', async () => {
    const first = await freshPair();
    const second = await refreshOk(first.refresh_token);
    system.clock.advance(10_000);
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(second);
  });

  it('RT-03 two concurrent refreshes with RT1: exactly one 200, and the family is then revoked', async () => {
    const first = await freshPair();
    const grantOf = async (rt: string) =>
      (
        await system.db
          .selectFrom('refresh_tokens')
          .select('grant_id')
          .where('token_hash', '=', digest(rt))
          .executeTakeFirstOrThrow()
      ).grant_id;
    const grantId = await grantOf(first.refresh_token);
    const responses = await Promise.all([
      refreshWith(system, app, first.refresh_token),
      refreshWith(system, app, first.refresh_token),
    ]);
    const ok = responses.filter((res) => res.status === 200);
    expect(ok).toHaveLength(1);
    const winner = await expectTokenResponse(ok[0]!);
    await expectOAuthError(
      responses.find((res) => res.status !== 200)!,
      400,
      'invalid_grant',
    );
    // Exactly one new pair was written, and the reuse revoked the grant it belongs to (D-4).
    const refreshRows = await system.db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('grant_id', '=', grantId)
      .execute();
    const accessRows = await system.db
      .selectFrom('access_tokens')
      .select('id')
      .where('grant_id', '=', grantId)
      .execute();
    expect(refreshRows).toHaveLength(2);
    expect(accessRows).toHaveLength(2);
    const grant = await system.db
      .selectFrom('grants')
      .select('revoked_at')
      .where('id', '=', grantId)
      .executeTakeFirstOrThrow();
    expect(grant.revoked_at).not.toBeNull();
    await familyIsDead(winner);
  });

  it('RT-04 RG-04 (grace window off) RT1 again at once, AT2 never used: reuse, the family is revoked', async () => {
    const first = await freshPair();
    const second = await refreshOk(first.refresh_token);
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(second);
  });

  it('RT-05 RT1 again after AT2 was used: reuse, like RT-02', async () => {
    const first = await freshPair();
    const second = await refreshOk(first.refresh_token);
    expect(await accessTokenWorks(system, second.access_token)).toBe(true);
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(second);
  });

  it('RT-06 RT1 after RT2 → RT3 (two generations old): reuse, the whole family including RT3 is revoked', async () => {
    const first = await freshPair();
    const second = await refreshOk(first.refresh_token);
    const third = await refreshOk(second.refresh_token);
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(third);
  });

  it('RT-07 TK-RF-05 a refresh token of client A presented by client B is invalid_grant and stays valid for A', async () => {
    const first = await freshPair();
    await expectOAuthError(await refreshWith(system, other, first.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(system, first.access_token)).toBe(true);
    await refreshOk(first.refresh_token);
  });

  it('RT-08 TK-RF-03 a refresh token of a revoked client is invalid_client (authentication fails first)', async () => {
    const doomed = await makeClient(system, owner, { name: 'Doomed App' });
    const pair = await freshPair(system, doomed);
    await revokeClient(system.db, system.clock, doomed.client.id);
    await expectOAuthError(await refreshWith(system, doomed, pair.refresh_token), 401, 'invalid_client');
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
  });

  it('RT-09 TK-RF-02 a refresh token after the user revoked the token in the UI is invalid_grant', async () => {
    const pair = await freshPair();
    // The token itself, not a search by its last four characters (two tokens can share them).
    const { tokenId } = await authenticateAccessToken(system.db, system.clock, pair.access_token);
    await revokeAccessToken(system.db, system.clock, tokenId, user.id);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
  });

  it('RT-10 SC-04 a scope parameter on refresh is no longer ignored: unknown names are invalid_scope, nothing consumed', async () => {
    const first = await freshPair();
    for (const scope of ['admin everything', 'profile admin', 'openid admin', 'Profile']) {
      await expectOAuthError(
        await refreshWith(system, app, first.refresh_token, { extra: { scope } }),
        400,
        'invalid_scope',
      );
    }
    expect(await accessTokenWorks(system, first.access_token)).toBe(true);
    const second = await refreshOk(first.refresh_token);
    expect(second.scope).toBe('profile email');
  });

  it('RT-12 refresh tokens are token68-safe base62 with 178 random bits and stored only as digests', async () => {
    const pair = await freshPair();
    expect(pair.refresh_token).toMatch(/^lkr_[0-9A-Za-z]{36}$/); // 30 random base62 characters: log2(62^30) ≈ 178 bits
    const rows = await system.db.selectFrom('refresh_tokens').selectAll().execute();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(pair.refresh_token);
    expect(dump).not.toContain(pair.refresh_token.slice(4, 34));
    expect(rows.some((row) => row.token_hash === digest(pair.refresh_token))).toBe(true);
  });
});

describe('SC-04 a refresh may narrow the scope, never widen it', () => {
  async function scopesOf(accessToken: string): Promise<string[]> {
    return (await authenticateAccessToken(system.db, system.clock, accessToken)).scopes;
  }

  it('SC-04 without `scope` (or with an empty one) the new token has the whole grant: `scope` says so', async () => {
    const first = await freshPair();
    expect(first.scope).toBe('profile email');
    const second = await refreshOk(first.refresh_token);
    expect(second.scope).toBe('profile email');
    const third = await refreshOk(second.refresh_token, { extra: { scope: '' } });
    expect(third.scope).toBe('profile email');
    expect(await scopesOf(third.access_token)).toEqual(['profile', 'email']);
  });

  it('SC-04 narrowing to `profile` gives a `profile` token; the next refresh without `scope` gets the whole grant again', async () => {
    const first = await freshPair();
    const narrow = await refreshOk(first.refresh_token, { extra: { scope: 'profile' } });
    expect(narrow.scope).toBe('profile');
    expect(await scopesOf(narrow.access_token)).toEqual(['profile']);
    // The refresh token keeps the grant's scope: narrowing one access token narrows nothing else.
    const again = await refreshOk(narrow.refresh_token);
    expect(again.scope).toBe('profile email');
    expect(await scopesOf(again.access_token)).toEqual(['profile', 'email']);
    // Order and repeats mean nothing (RFC 6749 §3.3); the answer is in registry order.
    const reordered = await refreshOk(again.refresh_token, { extra: { scope: 'email  profile email' } });
    expect(reordered.scope).toBe('profile email');
  });

  it('SC-04 a scope wider than the grant is invalid_scope and consumes nothing: the presented refresh token still works', async () => {
    const code = await makeScopedCode(system, app.client, user, ['profile']);
    const first = await expectTokenResponse(await exchangeCode(system, app, code));
    issued.push(code, first.access_token, first.refresh_token);
    expect(first.scope).toBe('profile');
    for (const scope of ['profile email', 'email', 'account', 'profile account']) {
      const body = await expectOAuthError(
        await refreshWith(system, app, first.refresh_token, { extra: { scope } }),
        400,
        'invalid_scope',
      );
      expect(body.error_description ?? '').not.toContain(scope);
    }
    expect(await accessTokenWorks(system, first.access_token)).toBe(true);
    const second = await refreshOk(first.refresh_token, { extra: { scope: 'profile' } });
    expect(second.scope).toBe('profile');
    // A third-party grant of every third-party scope cannot be widened to the portal's `account` either.
    const full = await freshPair();
    await expectOAuthError(
      await refreshWith(system, app, full.refresh_token, { extra: { scope: 'profile email account' } }),
      400,
      'invalid_scope',
    );
    expect((await refreshOk(full.refresh_token)).scope).toBe('profile email');
  });

  it('SC-04 P-02 a repeated `scope` on a refresh is invalid_request and consumes nothing', async () => {
    const first = await freshPair();
    const params = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    params.append('scope', 'profile');
    params.append('scope', 'email');
    await expectOAuthError(await postForm(tokenUrl(system), params), 400, 'invalid_request');
    await refreshOk(first.refresh_token);
  });
});

describe('TK-RF refresh request parameters', () => {
  it('TK-RF-01 a missing refresh_token is invalid_request', async () => {
    await expectOAuthError(await refreshWith(system, app, ''), 400, 'invalid_request');
  });

  it('TK-RF-02 an unknown or malformed refresh token is invalid_grant', async () => {
    const pair = await freshPair();
    const flipped = alterChar(pair.refresh_token, -1);
    for (const value of ['nope', flipped, pair.access_token, 'lkr_000000000000000000000000000000000000']) {
      await expectOAuthError(await refreshWith(system, app, value), 400, 'invalid_grant');
    }
    await refreshOk(pair.refresh_token);
  });

  it('TK-RF-02 a refresh token revoked through /oauth/revoke is invalid_grant', async () => {
    const pair = await freshPair();
    const res = await postForm(`${system.authUrl}/oauth/revoke`, {
      token: pair.refresh_token,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    expect(res.status).toBe(200);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
  });
});

describe('D-2 the documented refresh request with Authorization: Bearer', () => {
  it('TK-RF-09 body credentials plus Bearer with the valid access token: 200, the header is ignored', async () => {
    const first = await freshPair();
    const second = await refreshOk(first.refresh_token, { bearer: first.access_token });
    expect(await accessTokenWorks(system, second.access_token)).toBe(true);
  });

  it('TK-RF-10 body credentials plus Bearer with a garbage, revoked or foreign access token: 200', async () => {
    const first = await freshPair();
    const stranger = await freshPair(system, other);
    const second = await refreshOk(first.refresh_token, { bearer: 'garbage' });
    const third = await refreshOk(second.refresh_token, { bearer: first.access_token }); // revoked by the rotation
    const fourth = await refreshOk(third.refresh_token, { bearer: stranger.access_token });
    await refreshOk(fourth.refresh_token, { bearer: '' });
  });

  it('TK-RF-11 Bearer with the access token and no client_secret: invalid_client, no Basic challenge, nothing consumed', async () => {
    const first = await freshPair();
    const res = await postForm(
      tokenUrl(system),
      { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: app.client.id },
      { authorization: `Bearer ${first.access_token}` },
    );
    await expectOAuthError(res, 401, 'invalid_client', { wwwAuthenticate: null });
    const bearerOnly = await postForm(
      tokenUrl(system),
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { authorization: `Bearer ${first.access_token}` },
    );
    await expectOAuthError(bearerOnly, 401, 'invalid_client', { wwwAuthenticate: null });
    expect(await accessTokenWorks(system, first.access_token)).toBe(true);
    await refreshOk(first.refresh_token);
  });

  it('RF-04 D-2 the logs hold none of the codes, tokens, secrets or Bearer values used in this file', () => {
    const logs = system.logs.join('\n');
    expect(system.logs.length).toBeGreaterThan(0); // the rejections above were logged
    expect(issued.length).toBeGreaterThan(20);
    for (const secret of issued) expect(logs).not.toContain(secret);
    expect(logs).not.toMatch(/lk[porsc]_[0-9A-Za-z]{36}/);
  });
});
