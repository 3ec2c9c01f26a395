import { describe, expect, it } from 'vitest';
import { authenticateAccessToken, CODE_TTL_MS, deleteUser, revokeClient } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import {
  accessTokenWorks,
  basicAuth,
  countRows,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  grantOfCode,
  makeScopedCode,
  postForm,
  refreshWith,
  SAFE_DESCRIPTION,
  tokenUrl,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

// RFC 6749 §4.1.3 code exchange: AC-01..AC-10, TK-AC-*, TK-OK-*
// (PKCE, TK-AC-08, is in pkce.test.ts).
const { system, owner, user, app, other } = useTokenEndpoint();

describe('RFC 6749 §4.1.3 authorization code exchange', () => {
  it('AC-01 TK-OK-01 TK-OK-02 a valid code gives the documented JSON response with no-store', async () => {
    const code = await makeCode(system, app.client, user);
    const body = await expectTokenResponse(await exchangeCode(system, app, code));
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toMatch(/^[0-9]+$/);
    expect(await accessTokenWorks(system, body.access_token)).toBe(true);
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 1, refreshTokens: 1 });
  });

  it('TK-OK-03 expires_in is the real lifetime of the access token (one year by default)', async () => {
    const code = await makeCode(system, app.client, user);
    const body = await expectTokenResponse(await exchangeCode(system, app, code));
    expect(body.expires_in).toBe(String(system.config.tokenTtlSeconds));
    expect(system.config.tokenTtlSeconds).toBe(365 * 24 * 60 * 60);
    const row = await system.db
      .selectFrom('access_tokens')
      .select(['created_at', 'expires_at'])
      .where('token_hash', '=', digest(body.access_token))
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(system.config.tokenTtlSeconds * 1000);
  });

  it('client_secret_basic exchanges a code as well as client_secret_post', async () => {
    const code = await makeCode(system, app.client, user);
    const {
      client_id: _id,
      client_secret: _secret,
      ...form
    } = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.client.redirectUris[0]!,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    };
    await expectTokenResponse(
      await postForm(tokenUrl(system), form, { authorization: basicAuth(app.client.id, app.clientSecret) }),
    );
  });

  for (const [label, delayMs] of [
    ['1 s later', 1000],
    ['30 s later', 30_000],
  ] as const) {
    it(`AC-02 TK-AC-04 the same code again ${label}: invalid_grant and the first tokens are revoked`, async () => {
      const code = await makeCode(system, app.client, user);
      const first = await expectTokenResponse(await exchangeCode(system, app, code));
      system.clock.advance(delayMs);
      await expectOAuthError(await exchangeCode(system, app, code), 400, 'invalid_grant');
      expect(await accessTokenWorks(system, first.access_token)).toBe(false);
      await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
      expect(await grantOfCode(system, code)).toEqual({ grantRevoked: true, accessTokens: 1, refreshTokens: 1 });
    });
  }

  it('AC-03 the same code again with a wrong client_secret: invalid_client and the first tokens still work', async () => {
    const code = await makeCode(system, app.client, user);
    const first = await expectTokenResponse(await exchangeCode(system, app, code));
    await expectOAuthError(
      await exchangeCode(system, app, code, { client_secret: alterChar(app.clientSecret, -1) }),
      401,
      'invalid_client',
    );
    expect(await accessTokenWorks(system, first.access_token)).toBe(true);
    expect((await grantOfCode(system, code)).grantRevoked).toBe(false);
    await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
  });

  it('AC-04 20 parallel exchanges of one code: exactly one succeeds and the DB holds one token pair', async () => {
    const code = await makeCode(system, app.client, user);
    const responses = await Promise.all(Array.from({ length: 20 }, () => exchangeCode(system, app, code)));
    const ok = responses.filter((res) => res.status === 200);
    expect(ok).toHaveLength(1);
    await expectTokenResponse(ok[0]!);
    for (const res of responses.filter((r) => r.status !== 200)) await expectOAuthError(res, 400, 'invalid_grant');
    const rows = await grantOfCode(system, code);
    expect(rows.accessTokens).toBe(1);
    expect(rows.refreshTokens).toBe(1);
    // The 19 replays are replays (RFC 6749 §4.1.2): the one pair that was issued is revoked with the grant.
    expect(rows.grantRevoked).toBe(true);
  });

  it('AC-05 TK-AC-03 a code is accepted at 9:59 and refused at 10:01 after issue', async () => {
    const early = await makeCode(system, app.client, user);
    const late = await makeCode(system, app.client, user);
    expect(CODE_TTL_MS).toBe(10 * 60 * 1000);
    system.clock.advance(9 * 60 * 1000 + 59 * 1000);
    await expectTokenResponse(await exchangeCode(system, app, early));
    system.clock.advance(2000);
    await expectOAuthError(await exchangeCode(system, app, late), 400, 'invalid_grant');
    expect(await grantOfCode(system, late)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
  });

  it('AC-06 TK-AC-05 a code issued to client A and exchanged by client B is invalid_grant; A can still use it', async () => {
    const code = await makeCode(system, app.client, user);
    await expectOAuthError(
      await exchangeCode(system, other, code, { redirect_uri: app.client.redirectUris[0]! }),
      400,
      'invalid_grant',
    );
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
    await expectTokenResponse(await exchangeCode(system, app, code));
  });

  it('AC-07 a code of a user deleted between authorize and token is invalid_grant', async () => {
    const doomed = await makeUser(system, 'Short Lived');
    const code = await makeCode(system, app.client, doomed);
    await deleteUser(system.db, doomed.id);
    await expectOAuthError(await exchangeCode(system, app, code), 400, 'invalid_grant');
    expect(await countRows(system, 'access_tokens', { userId: doomed.id })).toBe(0);
  });

  it('AC-08 a code of a client revoked between authorize and token is invalid_client', async () => {
    const doomed = await makeClient(system, owner, { name: 'Doomed App' });
    const code = await makeCode(system, doomed.client, user);
    await revokeClient(system.db, system.clock, doomed.client.id);
    await expectOAuthError(await exchangeCode(system, doomed, code), 401, 'invalid_client');
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
  });

  it('AC-09 codes carry 256 bits from the CSPRNG in base64url and are stored only as digests', async () => {
    const codes = await Promise.all(Array.from({ length: 50 }, () => makeCode(system, app.client, user)));
    expect(new Set(codes).size).toBe(50);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes; VSCHAR and token68-safe
      expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    }
    const stored = await system.db.selectFrom('authorization_codes').selectAll().execute();
    const dump = JSON.stringify(stored);
    for (const code of codes) expect(dump).not.toContain(code);
    expect(stored.map((row) => row.code_hash)).toEqual(expect.arrayContaining(codes.map((code) => digest(code))));
  });

  it('AC-10 error descriptions are ASCII-safe and never echo the input', async () => {
    const hostile = '"><script>alert(1)</script>\\\u0000\r\nX-Injected: 1 \u00e9\u{1F600}';
    const code = await makeCode(system, app.client, user);
    const cases = [
      await exchangeCode(system, app, hostile),
      await exchangeCode(system, app, code, {
        redirect_uri: `https://client.example/cb?${encodeURIComponent(hostile)}`,
      }),
      await exchangeCode(system, app, code, { code_verifier: hostile }),
      await exchangeCode(system, app, code, { grant_type: hostile }),
      await exchangeCode(system, app, code, { client_id: hostile }),
      await exchangeCode(system, app, code, { client_secret: hostile }),
      await exchangeCode(system, app, code, { code: '' }),
    ];
    for (const res of cases) {
      const text = await res.clone().text();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const body = JSON.parse(text) as { error_description?: string };
      if (body.error_description !== undefined) expect(body.error_description).toMatch(SAFE_DESCRIPTION);
      expect(text).not.toContain('<script>');
      expect(text).not.toContain('alert(1)');
      expect(text).not.toContain('Injected');
      expect([...res.headers.keys()]).not.toContain('x-injected');
    }
  });
});

describe('SC-04 the scope of the code exchange', () => {
  it('SC-04 the response carries `scope`: the client’s default for a code issued without one, the code’s own when narrower', async () => {
    const code = await makeCode(system, app.client, user);
    const full = await expectTokenResponse(await exchangeCode(system, app, code));
    expect(full.scope).toBe('profile email');

    const narrow = await makeScopedCode(system, app.client, user, ['profile']);
    const body = await expectTokenResponse(await exchangeCode(system, app, narrow));
    expect(body.scope).toBe('profile');
    expect((await authenticateAccessToken(system.db, system.clock, body.access_token)).scopes).toEqual(['profile']);
  });

  it('SC-04 a `scope` sent with the code changes nothing (RFC 6749 §4.1.3 defines none): never wider than the code', async () => {
    const code = await makeCode(system, app.client, user);
    const body = await expectTokenResponse(await exchangeCode(system, app, code, { scope: 'profile email account' }));
    expect(body.scope).toBe('profile email');
    expect((await authenticateAccessToken(system.db, system.clock, body.access_token)).scopes).toEqual([
      'profile',
      'email',
    ]);
  });
});

describe('TK-AC token endpoint parameters of the code grant', () => {
  it('TK-AC-01 a missing code is invalid_request', async () => {
    const res = await exchangeCode(system, app, '');
    await expectOAuthError(res, 400, 'invalid_request');
  });

  it('TK-AC-02 a garbage code is invalid_grant', async () => {
    for (const garbage of ['nope', 'A'.repeat(43), 'lko_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', ' ']) {
      await expectOAuthError(await exchangeCode(system, app, garbage), 400, 'invalid_grant');
    }
  });

  it('TK-AC-06 RU-12 a redirect_uri other than the one authorized is invalid_grant and consumes nothing', async () => {
    const code = await makeCode(system, app.client, user);
    for (const redirectUri of [
      'https://client.example/cb/',
      'https://CLIENT.example/cb',
      'https://client.example:443/cb',
      'https://client.example/cb?x=1',
    ]) {
      await expectOAuthError(
        await exchangeCode(system, app, code, { redirect_uri: redirectUri }),
        400,
        'invalid_grant',
      );
    }
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
    await expectTokenResponse(await exchangeCode(system, app, code));
  });

  it('TK-AC-07 a missing redirect_uri is invalid_request (it is always sent at authorize)', async () => {
    const code = await makeCode(system, app.client, user);
    await expectOAuthError(await exchangeCode(system, app, code, { redirect_uri: '' }), 400, 'invalid_request');
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
  });

  it('TK-AC-04 a replayed code never yields a second pair, however often it is tried', async () => {
    const code = await makeCode(system, app.client, user);
    await expectTokenResponse(await exchangeCode(system, app, code));
    for (let i = 0; i < 3; i++) await expectOAuthError(await exchangeCode(system, app, code), 400, 'invalid_grant');
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: true, accessTokens: 1, refreshTokens: 1 });
  });
});
