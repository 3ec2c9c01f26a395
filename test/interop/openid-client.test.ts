// openid-client 6 as a third-party application (the library a Node developer would pick):
// discovery through RFC 8414 metadata, the authorization code grant with and without PKCE,
// the `iss` and `state` checks, refresh and RFC 7009 revocation; with `expires_in` as a string
// and as a number (the interoperability suite, issue 18: CL-08).
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRES_IN_MODES, startInteropSystem, type InteropSystem } from './interop-support.ts';

const redirectUri = 'http://127.0.0.1:8765/callback';

describe.each(EXPIRES_IN_MODES)('CL-08 openid-client 6 as a third-party client, $name', ({ env }) => {
  let s: InteropSystem;
  beforeAll(async () => {
    s = await startInteropSystem(env);
  });
  afterAll(() => s?.close());

  async function configure(requirePkce: boolean): Promise<oidc.Configuration> {
    const { clientId, clientSecret } = await s.registerClient(redirectUri, { requirePkce });
    // The issuer is plain http on loopback in tests; production issuers are https.
    return oidc.discovery(new URL(s.system.authUrl), clientId, clientSecret, undefined, {
      algorithm: 'oauth2',
      execute: [oidc.allowInsecureRequests],
    });
  }

  it('discovers the RFC 8414 metadata', async () => {
    const config = await configure(false);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(s.system.authUrl);
    expect(metadata.code_challenge_methods_supported).toContain('S256');
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('runs authorizationCodeGrant and refreshTokenGrant with PKCE', async () => {
    const config = await configure(true);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await s.runBrowser(url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type).toBe('bearer');
    // openid-client reads the documented digit-string expires_in.
    expect(tokens.expiresIn()).toBeGreaterThan(31_535_000);
    expect(await s.profileName(tokens.access_token)).toBe('Katherine Johnson');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await s.profileName(refreshed.access_token)).toBe('Katherine Johnson');

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    expect(await s.profileName(refreshed.access_token)).toBeUndefined();
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('runs authorizationCodeGrant without PKCE for a client that does not require it', async () => {
    const config = await configure(false);
    const state = oidc.randomState();
    const callback = await s.runBrowser(oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, state }));
    const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(await s.profileName(tokens.access_token)).toBe('Katherine Johnson');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(await s.profileName(refreshed.access_token)).toBe('Katherine Johnson');
  });

  it('rejects a callback whose state was tampered with (client-side check) and a replayed code (server-side)', async () => {
    const config = await configure(false);
    const state = oidc.randomState();
    const callback = await s.runBrowser(oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, state }));
    await expect(oidc.authorizationCodeGrant(config, callback, { expectedState: 'other' })).rejects.toThrow();
    await oidc.authorizationCodeGrant(config, callback, { expectedState: state });
    await expect(oidc.authorizationCodeGrant(config, callback, { expectedState: state })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});
