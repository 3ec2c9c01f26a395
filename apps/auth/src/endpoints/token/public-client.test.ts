import { describe, expect, it } from 'vitest';
import { revokeClient } from '@latchkey/core';
import { authorizeViaPages } from '#test/support/browserless-flow.ts';
import { makeCode, makeUser, pkcePair } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import {
  accessTokenWorks,
  basicAuth,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  makePublicClient,
  postForm,
  publicTokenRequest,
  tokenUrl,
  type TokenResponse,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// Issue 29: a public client (RFC 6749 §2.1, `token_endpoint_auth_method` none) at the token
// endpoint: client_id and no secret for the code and for refreshes (PC-03), never a secret
// (PC-04), and its refresh tokens rotate under the same reuse rules as anyone's (PC-12). This
// system keeps the default reuse grace window (30 s, RG-01).
const { system, owner, user, app } = useTokenEndpoint();
const SPA_REDIRECT = 'https://spa.example/cb';
const { spa } = perFile(async () => ({ spa: await makePublicClient(system, owner, [SPA_REDIRECT]) }));

/** A code of `spa` for `user` with its PKCE verifier, as /oauth/authorize would issue it. */
async function spaCode(): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  return { code: await makeCode(system, spa, user, { codeChallenge: challenge }), verifier };
}

function exchangeForm(code: string, verifier: string): Record<string, string> {
  return { grant_type: 'authorization_code', code, redirect_uri: SPA_REDIRECT, code_verifier: verifier };
}

async function spaPair(): Promise<TokenResponse> {
  const { code, verifier } = await spaCode();
  return expectTokenResponse(await publicTokenRequest(system, spa, exchangeForm(code, verifier)));
}

function refresh(refreshToken: string, extra: Record<string, string> = {}): Promise<Response> {
  return publicTokenRequest(system, spa, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
}

async function userinfoName(accessToken: string): Promise<unknown> {
  const answer = await fetch(`${system.authUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { name: unknown }).name;
}

async function familyIsDead(pair: TokenResponse): Promise<void> {
  expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
  await expectOAuthError(await refresh(pair.refresh_token), 400, 'invalid_grant');
}

describe('PC-03 a public client authenticates with client_id alone (none)', () => {
  it('PC-03 signs in with PKCE, exchanges the code and refreshes with no secret, and calls userinfo', async () => {
    const person = await makeUser(system, 'Grace Hopper');
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeViaPages(system, {
      clientId: spa.id,
      redirectUri: SPA_REDIRECT,
      codeChallenge: challenge,
      state: 'pc03',
      user: person,
    });
    const first = await expectTokenResponse(await publicTokenRequest(system, spa, exchangeForm(code!, verifier)));
    expect(await userinfoName(first.access_token)).toBe('Grace Hopper');
    const second = await expectTokenResponse(await refresh(first.refresh_token));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await userinfoName(second.access_token)).toBe('Grace Hopper');
  });

  it('PC-03 PK-03 the verifier still binds the code: without it, invalid_grant', async () => {
    const { code } = await spaCode();
    await expectOAuthError(
      await publicTokenRequest(system, spa, { grant_type: 'authorization_code', code, redirect_uri: SPA_REDIRECT }),
      400,
      'invalid_grant',
    );
  });

  it('PC-03 a confidential client that sends no secret is 401 invalid_client, and its code is not consumed', async () => {
    const code = await makeCode(system, app.client, user);
    const form = { grant_type: 'authorization_code', code, redirect_uri: app.client.redirectUris[0]! };
    await expectOAuthError(
      await postForm(tokenUrl(system), { ...form, client_id: app.client.id }),
      401,
      'invalid_client',
    );
    await expectTokenResponse(await exchangeCode(system, app, code));
  });

  it('PC-03 RT-08 a revoked public client is invalid_client, its tokens with it', async () => {
    const gone = await makePublicClient(system, owner, [SPA_REDIRECT], 'Gone App');
    const { verifier, challenge } = pkcePair();
    const code = await makeCode(system, gone, user, { codeChallenge: challenge });
    const pair = await expectTokenResponse(
      await publicTokenRequest(system, gone, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: SPA_REDIRECT,
        code_verifier: verifier,
      }),
    );
    await revokeClient(system.db, system.clock, gone.id);
    await expectOAuthError(
      await publicTokenRequest(system, gone, { grant_type: 'refresh_token', refresh_token: pair.refresh_token }),
      401,
      'invalid_client',
    );
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
  });
});

describe('PC-04 a public client that sends a secret is refused', () => {
  const secret = 'lks_0123456789abcdefghijklmnopqrstuvwxyz';

  it('PC-04 Basic or client_secret in the body: 401 invalid_client, and the code still redeems afterwards', async () => {
    const { code, verifier } = await spaCode();
    const form = exchangeForm(code, verifier);
    await expectOAuthError(
      await publicTokenRequest(system, spa, form, { authorization: basicAuth(spa.id, secret) }),
      401,
      'invalid_client',
      { wwwAuthenticate: 'Basic realm="latchkey"' },
    );
    // An empty `client_secret=` is no secret: RFC 6749 §3.1 treats a parameter without a value as omitted.
    await expectOAuthError(
      await publicTokenRequest(system, spa, { ...form, client_secret: secret }),
      401,
      'invalid_client',
    );
    await expectTokenResponse(await publicTokenRequest(system, spa, form));
  });

  it('PC-04 a refresh with a secret is refused and consumes nothing', async () => {
    const pair = await spaPair();
    await expectOAuthError(await refresh(pair.refresh_token, { client_secret: secret }), 401, 'invalid_client');
    await expectTokenResponse(await refresh(pair.refresh_token));
  });
});

describe('PC-12 a public client’s refresh tokens rotate under the same reuse rules', () => {
  it('PC-12 RG-03 a rotated token presented after the 30 s window revokes the whole grant', async () => {
    const first = await spaPair();
    const second = await expectTokenResponse(await refresh(first.refresh_token));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    system.clock.advance(30_001);
    await expectOAuthError(await refresh(first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(second);
  });

  it('PC-12 RG-03 an older generation is reuse even inside the window: RT1 after RT2 → RT3 revokes everything', async () => {
    const first = await spaPair();
    const second = await expectTokenResponse(await refresh(first.refresh_token));
    const third = await expectTokenResponse(await refresh(second.refresh_token));
    await expectOAuthError(await refresh(first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(third);
  });

  it('PC-12 RT-07 another client presenting its refresh token (even with no secret) is refused and changes nothing', async () => {
    const pair = await spaPair();
    const stranger = await makePublicClient(system, owner, [SPA_REDIRECT], 'Stranger App');
    await expectOAuthError(
      await publicTokenRequest(system, stranger, { grant_type: 'refresh_token', refresh_token: pair.refresh_token }),
      400,
      'invalid_grant',
    );
    await expectTokenResponse(await refresh(pair.refresh_token));
  });
});
