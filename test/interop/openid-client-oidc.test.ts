// openid-client 6 as an OpenID Connect relying party (issue 30): its default discovery
// (/.well-known/openid-configuration) from the issuer URL alone, the code flow with PKCE, state
// and nonce, the id_token checked (claims always; signature against the published JWKS with
// enableNonRepudiationChecks), then userinfo (OI-13); and the id_tokens it must refuse (OI-14).
import * as oidc from 'openid-client';
import { ID_TOKEN_TTL_MS } from '@latchkey/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OIDC_SCOPES,
  resignedWithUnknownKey,
  rewritingTokenResponses,
  startInteropSystem,
  withTamperedSignature,
  type InteropSystem,
} from './interop-support.ts';

const redirectUri = 'http://127.0.0.1:8765/callback';

describe('openid-client 6 as an OpenID Connect relying party', () => {
  let s: InteropSystem;
  beforeAll(async () => {
    s = await startInteropSystem();
  });
  afterAll(() => s?.close());

  /**
   * What a developer writes: the issuer URL, the client's id and secret, nothing else. openid-client
   * verifies an id_token's signature only with enableNonRepudiationChecks (from the token
   * endpoint over TLS it may trust the channel instead, OpenID Connect Core §3.1.3.7), so it is on:
   * these tests are about the signature too. The issuer is plain http on loopback in tests.
   */
  async function configure(clockSkewSeconds = 0): Promise<{ config: oidc.Configuration; clientId: string }> {
    const { clientId, clientSecret } = await s.registerClient(redirectUri, { requirePkce: true });
    const metadata = { client_secret: clientSecret, [oidc.clockSkew]: clockSkewSeconds };
    const config = await oidc.discovery(new URL(s.system.authUrl), clientId, metadata, undefined, {
      execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
    });
    return { config, clientId };
  }

  /** The authorization URL with PKCE, state and a nonce; our pages; back at the callback. `sentNonce` replaces the nonce on the way. */
  async function signIn(config: oidc.Configuration, sentNonce?: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: OIDC_SCOPES.join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    if (sentNonce !== undefined) url.searchParams.set('nonce', sentNonce);
    const callback = await s.runBrowser(url);
    return { callback, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce } };
  }

  it('OI-13 signs the user in from the issuer URL alone: default discovery, a verified id_token with the name, userinfo', async () => {
    const { config, clientId } = await configure();
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(s.system.authUrl);
    expect(metadata.jwks_uri).toBeTruthy();

    const { callback, checks } = await signIn(config);
    const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: s.system.authUrl,
      aud: clientId,
      sub: s.user.id,
      nonce: checks.expectedNonce,
      name: 'Katherine Johnson',
      email: s.user.email,
      email_verified: false,
    });
    expect(await s.profileName(tokens.access_token)).toBe('Katherine Johnson');

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ sub: s.user.id, name: 'Katherine Johnson', email: s.user.email });
  });

  // A refusal is openid-client's ClientError (what kind of check failed) whose cause is
  // oauth4webapi's error (which check).
  it('OI-14 openid-client refuses an id_token whose nonce is not the one it expects', async () => {
    const { config } = await configure();
    // The server echoes the nonce the browser carried (OI-04); the client expects its own.
    const { callback, checks } = await signIn(config, oidc.randomNonce());
    await expect(oidc.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
      message: 'unexpected JWT claim value encountered',
      cause: { message: 'unexpected ID Token "nonce" claim value' },
    });
  });

  it('OI-14 openid-client refuses an expired id_token', async () => {
    // The id_token reaches the client after its exp: the client's clock (openid-client's
    // clockSkew) is ahead of the server's by an id_token's lifetime and 5 minutes, well past
    // its 30 s tolerance. (The server's clock cannot go back instead: no key signs before it was made.)
    const { config } = await configure(ID_TOKEN_TTL_MS / 1000 + 5 * 60);
    const { callback, checks } = await signIn(config);
    await expect(oidc.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
      message: 'JWT timestamp claim value failed validation',
      cause: { message: 'unexpected JWT "exp" (expiration time) claim value, expiration is past current timestamp' },
    });
  });

  it.each([
    [
      'whose signature was tampered with',
      withTamperedSignature,
      { message: 'invalid response encountered', cause: { message: 'JWT signature verification failed' } },
    ],
    [
      'signed by a key whose kid is not in the JWKS',
      resignedWithUnknownKey,
      { cause: { message: 'error when selecting a JWT verification key, no applicable keys found' } },
    ],
  ])('OI-14 openid-client refuses an id_token %s', async (_name, tamper, refusal) => {
    const { config } = await configure();
    config[oidc.customFetch] = rewritingTokenResponses(config.serverMetadata().token_endpoint!, (body) => ({
      ...body,
      id_token: tamper(body.id_token!),
    }));
    const { callback, checks } = await signIn(config);
    await expect(oidc.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject(refusal);
  });
});
