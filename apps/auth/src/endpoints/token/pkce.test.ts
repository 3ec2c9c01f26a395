import { describe, expect, it } from 'vitest';
import { findClient } from '@latchkey/core';
import { makeClient, makeCode, pkcePair } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import {
  accessTokenWorks,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  grantOfCode,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

// RFC 7636 §4.5–4.6 and RFC 9700 §4.8.2 at the token endpoint: PK-01..PK-04,
// TK-AC-08. The authorization endpoint's half (PK-05..PK-08) is in authorize/pkce.test.ts.
const { system, user, app } = useTokenEndpoint({}, { userOwnsClients: true });
const { pkceApp } = perFile(async () => ({
  pkceApp: await makeClient(system, user, {
    name: 'PKCE App',
    redirectUri: 'https://pkce.example/cb',
    requirePkce: true,
  }),
}));

describe('RFC 7636 PKCE at the token endpoint (TK-AC-08)', () => {
  it('PK-01 S256 challenge at authorize and the right verifier: 200', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await makeCode(system, pkceApp.client, user, { codeChallenge: challenge });
    const body = await expectTokenResponse(await exchangeCode(system, pkceApp, code, { code_verifier: verifier }));
    expect(await accessTokenWorks(system, body.access_token)).toBe(true);
  });

  it('PK-02 a wrong verifier is invalid_grant and burns the code', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await makeCode(system, pkceApp.client, user, { codeChallenge: challenge });
    const wrong = alterChar(verifier, 0);
    await expectOAuthError(await exchangeCode(system, pkceApp, code, { code_verifier: wrong }), 400, 'invalid_grant');
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
    await expectOAuthError(
      await exchangeCode(system, pkceApp, code, { code_verifier: verifier }),
      400,
      'invalid_grant',
    );
    expect((await grantOfCode(system, code)).accessTokens).toBe(0);
  });

  it('PK-02 a verifier outside the RFC 7636 charset or length is invalid_grant', async () => {
    const { challenge } = pkcePair();
    for (const verifier of ['short', 'a'.repeat(129), `${'a'.repeat(42)}!`]) {
      const code = await makeCode(system, pkceApp.client, user, { codeChallenge: challenge });
      await expectOAuthError(
        await exchangeCode(system, pkceApp, code, { code_verifier: verifier }),
        400,
        'invalid_grant',
      );
      expect((await grantOfCode(system, code)).accessTokens).toBe(0);
    }
  });

  it('PK-03 no verifier for a code with a challenge is invalid_grant; no token', async () => {
    const { challenge } = pkcePair();
    const code = await makeCode(system, pkceApp.client, user, { codeChallenge: challenge });
    await expectOAuthError(await exchangeCode(system, pkceApp, code), 400, 'invalid_grant');
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
  });

  it('PK-04 a verifier for a code issued without a challenge is invalid_request (downgrade, RFC 9700 §4.8.2)', async () => {
    const code = await makeCode(system, app.client, user);
    await expectOAuthError(
      await exchangeCode(system, app, code, { code_verifier: pkcePair().verifier }),
      400,
      'invalid_request',
    );
    expect(await grantOfCode(system, code)).toEqual({ grantRevoked: false, accessTokens: 0, refreshTokens: 0 });
  });

  it('PK-01 the portal client (PKCE required) exchanges with its verifier', async () => {
    const portal = (await findClient(system.db, system.config.portal.clientId))!;
    const { verifier, challenge } = pkcePair();
    const code = await makeCode(system, portal, user, { codeChallenge: challenge });
    const creds = { client: portal, clientSecret: system.config.portal.clientSecret };
    await expectTokenResponse(await exchangeCode(system, creds, code, { code_verifier: verifier }));
  });
});
