// oauth4webapi 3 (issue 18) with the configuration docs/integrating.md shows: RFC 8414 discovery with
// `algorithm: 'oauth2'`, the authorization code grant with PKCE S256 and state, the RFC 9207
// `iss` check on the callback, refresh (rotation) and RFC 7009 revocation. Run once with
// `expires_in` as the documented digit string and once as a JSON number.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRES_IN_MODES, startInteropSystem, type InteropSystem } from './interop-support.ts';

const redirectUri = 'http://127.0.0.1:8765/callback';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

describe.each(EXPIRES_IN_MODES)('CL-04 oauth4webapi 3 ($name)', ({ env }) => {
  const expiresInAsNumber = 'EXPIRES_IN_AS_NUMBER' in env;
  let interop: InteropSystem;

  beforeAll(async () => {
    interop = await startInteropSystem(env);
  });
  afterAll(() => interop?.close());

  it('CL-04 runs discovery, code grant with PKCE, API call, refresh and revocation', async () => {
    // --- the configuration of docs/integrating.md ---------------------------------------
    // Plain http on loopback in tests only; a production issuer is https and needs no flag.
    const http = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(interop.system.authUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...http }),
    );
    const { clientId, clientSecret } = await interop.registerClient(redirectUri, { requirePkce: true });
    const client: oauth.Client = { client_id: clientId };
    const clientAuth = oauth.ClientSecretPost(clientSecret);
    // ----------------------------------------------------------------------------------------

    expect(as.issuer).toBe(interop.system.authUrl);
    expect(as.authorization_endpoint).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(as.token_endpoint).toBe(`${interop.system.authUrl}/oauth/token`);
    expect(as.revocation_endpoint).toBe(`${interop.system.authUrl}/oauth/revoke`);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);

    // Authorization URL with PKCE S256 and state.
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.searchParams.set('client_id', client.client_id);
    authorizationUrl.searchParams.set('redirect_uri', redirectUri);
    authorizationUrl.searchParams.set('response_type', 'code');
    authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    authorizationUrl.searchParams.set('code_challenge_method', 'S256');
    authorizationUrl.searchParams.set('state', state);

    const callback = await interop.runBrowser(authorizationUrl);
    // The server sends RFC 9207 `iss`; oauth4webapi checks it against the discovered issuer.
    expect(callback.searchParams.get('iss')).toBe(interop.system.authUrl);
    const params = oauth.validateAuthResponse(as, client, callback, state);

    // A callback from another issuer, or with another state, is refused by the library.
    const forged = new URL(callback);
    forged.searchParams.set('iss', 'http://127.0.0.1:1');
    expect(() => oauth.validateAuthResponse(as, client, forged, state)).toThrow();
    expect(() => oauth.validateAuthResponse(as, client, callback, 'other-state')).toThrow();

    // Code exchange.
    const codeResponse = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      redirectUri,
      codeVerifier,
      http,
    );
    const rawTokens = (await codeResponse.clone().json()) as { expires_in: unknown };
    expect(typeof rawTokens.expires_in).toBe(expiresInAsNumber ? 'number' : 'string');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, codeResponse);
    expect(tokens.token_type).toBe('bearer'); // oauth4webapi lower-cases it
    // oauth4webapi turns a string expires_in into a number with parseFloat (and checks it).
    expect(tokens.expires_in).toBe(ONE_YEAR_SECONDS);
    const expiresAt = Date.now() + tokens.expires_in! * 1000;
    expect(expiresAt).toBeGreaterThan(Date.now() + (ONE_YEAR_SECONDS - 60) * 1000);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await interop.profileName(tokens.access_token)).toBe('Katherine Johnson');

    // Refresh: a new pair (the refresh token rotates) and the new access token works.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, http),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.expires_in).toBe(ONE_YEAR_SECONDS);
    expect(await interop.profileName(refreshed.access_token)).toBe('Katherine Johnson');

    // Revocation (RFC 7009) of the refresh token: its access token and itself stop working.
    await expect(
      oauth.processRevocationResponse(
        await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, http),
      ),
    ).resolves.toBeUndefined();
    expect(await interop.profileName(refreshed.access_token)).toBeUndefined();
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, http),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('CL-04 authenticates with ClientSecretBasic as well', async () => {
    const http = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(interop.system.authUrl);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...http }),
    );
    const { clientId, clientSecret } = await interop.registerClient(redirectUri, { requirePkce: true });
    const client: oauth.Client = { client_id: clientId };
    const clientAuth = oauth.ClientSecretBasic(clientSecret);

    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.searchParams.set('client_id', client.client_id);
    authorizationUrl.searchParams.set('redirect_uri', redirectUri);
    authorizationUrl.searchParams.set('response_type', 'code');
    authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    authorizationUrl.searchParams.set('code_challenge_method', 'S256');
    authorizationUrl.searchParams.set('state', state);
    const params = oauth.validateAuthResponse(as, client, await interop.runBrowser(authorizationUrl), state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, codeVerifier, http),
    );
    expect(await interop.profileName(tokens.access_token)).toBe('Katherine Johnson');
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, http),
    );
    expect(await interop.profileName(refreshed.access_token)).toBe('Katherine Johnson');
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, http),
    );
    expect(await interop.profileName(refreshed.access_token)).toBeUndefined();
  });
});
