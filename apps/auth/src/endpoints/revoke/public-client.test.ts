import { describe, expect, it } from 'vitest';
import { makeCode, pkcePair } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import {
  accessTokenWorks,
  expectOAuthError,
  expectTokenResponse,
  makePublicClient,
  postForm,
  publicTokenRequest,
  revokeUrl,
  type TokenResponse,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// Issue 29: a public client revokes its own tokens at /oauth/revoke (RFC 7009) with client_id
// alone, as it authenticates at the token endpoint (PC-03); a secret is refused there too (PC-04).
const { system, owner, user } = useTokenEndpoint();
const SPA_REDIRECT = 'https://spa.example/cb';
const { spa, stranger } = perFile(async () => ({
  spa: await makePublicClient(system, owner, [SPA_REDIRECT]),
  stranger: await makePublicClient(system, owner, [SPA_REDIRECT], 'Stranger App'),
}));

async function spaPair(): Promise<TokenResponse> {
  const { verifier, challenge } = pkcePair();
  const code = await makeCode(system, spa, user, { codeChallenge: challenge });
  return expectTokenResponse(
    await publicTokenRequest(system, spa, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: SPA_REDIRECT,
      code_verifier: verifier,
    }),
  );
}

function refresh(refreshToken: string): Promise<Response> {
  return publicTokenRequest(system, spa, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

describe('PC-03 a public client at the revocation endpoint', () => {
  it('PC-03 revokes its refresh token with client_id alone: {} and the grant is gone', async () => {
    const pair = await spaPair();
    const answer = await postForm(revokeUrl(system), { token: pair.refresh_token, client_id: spa.id });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{}');
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
    await expectOAuthError(await refresh(pair.refresh_token), 400, 'invalid_grant');
  });

  it('PC-04 with a secret it is 401 invalid_client and the token keeps working', async () => {
    const pair = await spaPair();
    await expectOAuthError(
      await postForm(revokeUrl(system), { token: pair.refresh_token, client_id: spa.id, client_secret: 'lks_x' }),
      401,
      'invalid_client',
    );
    expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
  });

  it('RV-08 another public client naming itself gets 200 and the token is left alone', async () => {
    const pair = await spaPair();
    const answer = await postForm(revokeUrl(system), { token: pair.refresh_token, client_id: stranger.id });
    expect(answer.status).toBe(200);
    await expectTokenResponse(await refresh(pair.refresh_token));
  });
});
