// openid-client 6 as a third-party application (the library a Node developer would pick):
// discovery through RFC 8414 metadata, the authorization code grant with and without PKCE,
// the `iss` and `state` checks, refresh and RFC 7009 revocation.
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeViaPages, type AuthorizeRequest } from './support/browserless-flow.ts';
import { makeClient, makeUser } from './support/fixtures.ts';
import { startSystem, type TestSystem } from './support/system.ts';

let system: TestSystem;
let user: Awaited<ReturnType<typeof makeUser>>;
const redirectUri = 'http://127.0.0.1:8765/callback';

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system, 'Katherine Johnson');
});
afterAll(() => system.close());

async function configure(requirePkce: boolean): Promise<oidc.Configuration> {
  const { client, clientSecret } = await makeClient(system, user, { redirectUri, requirePkce });
  // The issuer is plain http on loopback in tests; production issuers are https.
  return oidc.discovery(new URL(system.authUrl), client.id, clientSecret, undefined, {
    algorithm: 'oauth2',
    execute: [oidc.allowInsecureRequests],
  });
}

/** Turns the URL openid-client built into the pages driver's request, then runs the browser part. */
async function runBrowser(url: URL): Promise<URL> {
  const p = url.searchParams;
  const request: AuthorizeRequest = {
    clientId: p.get('client_id')!,
    redirectUri: p.get('redirect_uri')!,
    ...(p.get('state') ? { state: p.get('state')! } : {}),
    ...(p.get('code_challenge') ? { codeChallenge: p.get('code_challenge')!, codeChallengeMethod: p.get('code_challenge_method')! } : {}),
  };
  expect(url.origin + url.pathname).toBe(`${system.authUrl}/oauth/authorize`);
  const response = await authorizeViaPages(system, { ...request, user });
  return new URL(response.location);
}

async function profileName(accessToken: string): Promise<unknown> {
  const response = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  return ((await response.json()) as { data?: { profile: { name: string } } }).data?.profile.name;
}

describe('openid-client 6 as a third-party client', () => {
  it('discovers the RFC 8414 metadata', async () => {
    const config = await configure(false);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(system.authUrl);
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
    const callback = await runBrowser(url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type).toBe('bearer');
    // openid-client reads the documented digit-string expires_in.
    expect(tokens.expiresIn()).toBeGreaterThan(31_535_000);
    expect(await profileName(tokens.access_token)).toBe('Katherine Johnson');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await profileName(refreshed.access_token)).toBe('Katherine Johnson');

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    expect(await profileName(refreshed.access_token)).toBeUndefined();
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('runs authorizationCodeGrant without PKCE for a client that does not require it', async () => {
    const config = await configure(false);
    const state = oidc.randomState();
    const callback = await runBrowser(oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, state }));
    const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(await profileName(tokens.access_token)).toBe('Katherine Johnson');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(await profileName(refreshed.access_token)).toBe('Katherine Johnson');
  });

  it('rejects a callback whose state was tampered with (client-side check) and a replayed code (server-side)', async () => {
    const config = await configure(false);
    const state = oidc.randomState();
    const callback = await runBrowser(oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, state }));
    await expect(oidc.authorizationCodeGrant(config, callback, { expectedState: 'other' })).rejects.toThrow();
    await oidc.authorizationCodeGrant(config, callback, { expectedState: state });
    await expect(oidc.authorizationCodeGrant(config, callback, { expectedState: state })).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
