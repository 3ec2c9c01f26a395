import { describe, expect, it } from 'vitest';
import {
  createPersonalAccessToken,
  createResourceServer,
  issueAuthorizationCode,
  revokeApplicationAccess,
  revokeClient,
  revokeResourceServer,
} from '@latchkey/core';
import { generateToken, TokenPrefix } from '@latchkey/credentials';
import { makeClient, makeCode, makePat } from '#test/support/fixtures.ts';
import {
  basicAuth,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  makePublicClient,
  makeScopedCode,
  postForm,
  revokeUrl,
  type ClientCredentialsFixture,
  type TokenResponse,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

// OI-11: RFC 7662 token introspection for resource servers, over real HTTP on both engines.
const { system, owner, user, app, other } = useTokenEndpoint();

function introspectUrl(): string {
  return `${system.authUrl}/oauth/introspect`;
}

/** `other` plays the resource server: a confidential client that was not issued the token. */
function introspect(token: string, by: ClientCredentialsFixture = other, extra: Record<string, string> = {}) {
  return postForm(introspectUrl(), { token, client_id: by.client.id, client_secret: by.clientSecret, ...extra });
}

async function freshPair(creds: ClientCredentialsFixture = app): Promise<TokenResponse> {
  return expectTokenResponse(await exchangeCode(system, creds, await makeCode(system, creds.client, user)));
}

async function expectJson(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return JSON.parse(text) as Record<string, unknown>;
}

/** OI-11: an inactive token's answer is exactly this, whatever made it inactive. */
async function expectInactive(res: Response, label: string): Promise<void> {
  const text = await res.text();
  expect(res.status, label).toBe(200);
  expect(res.headers.get('cache-control'), label).toBe('no-store');
  expect(text, label).toBe('{"active":false}');
}

const nowSeconds = () => Math.floor(system.clock.now() / 1000);

describe('OI-11 POST /oauth/introspect (RFC 7662)', () => {
  it('OI-11 RS-10 a live OAuth access token is active with scope, client_id, sub, exp, iat, aud and token_type, for any confidential client', async () => {
    const pair = await freshPair();
    const body = await expectJson(await introspect(pair.access_token));
    expect(Object.keys(body).sort()).toEqual([
      'active',
      'aud',
      'client_id',
      'exp',
      'iat',
      'scope',
      'sub',
      'token_type',
    ]);
    expect(body).toEqual({
      active: true,
      scope: pair.scope,
      client_id: app.client.id,
      sub: user.id,
      exp: nowSeconds() + Number(pair.expires_in),
      iat: nowSeconds(),
      // RS-03: asked for no resource, so the Latchkey API's: API_URL.
      aud: system.apiUrl,
      token_type: 'Bearer',
    });
    // The client it was issued to may ask too, with Basic authentication.
    const own = await postForm(
      introspectUrl(),
      { token: pair.access_token },
      { authorization: basicAuth(app.client.id, app.clientSecret) },
    );
    expect(await expectJson(own)).toEqual(body);
  });

  it("OI-11 the scope is the token's own: a narrower grant shows less", async () => {
    const code = await makeScopedCode(system, app.client, user, ['profile']);
    const pair = await expectTokenResponse(await exchangeCode(system, app, code));
    expect(await expectJson(await introspect(pair.access_token))).toMatchObject({ active: true, scope: 'profile' });
  });

  it('OI-11 RS-10 a live personal access token is active with its scope, sub, times and the API as aud, and no client_id', async () => {
    const pat = await makePat(system, user);
    const body = await expectJson(await introspect(pat));
    expect(body).toEqual({
      active: true,
      scope: 'profile email',
      sub: user.id,
      exp: expect.any(Number),
      iat: nowSeconds(),
      aud: system.apiUrl,
      token_type: 'Bearer',
    });
    expect(body.exp as number).toBeGreaterThan(nowSeconds());
  });

  it('OI-11 token_type_hint is accepted and ignored, right or wrong', async () => {
    const pair = await freshPair();
    for (const hint of ['access_token', 'refresh_token', 'nonsense']) {
      expect(await expectJson(await introspect(pair.access_token, other, { token_type_hint: hint }))).toMatchObject({
        active: true,
      });
    }
  });

  it('OI-11 a revoked token is {"active":false} on the very next request (DD-5), its refresh token too', async () => {
    const pair = await freshPair();
    const revoked = await postForm(revokeUrl(system), {
      token: pair.access_token,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    expect(revoked.status).toBe(200);
    await expectInactive(await introspect(pair.access_token), 'revoked access token');
    await expectInactive(await introspect(pair.refresh_token), 'refresh token');
  });

  it('OI-11 unknown, garbage and refresh tokens are {"active":false}, never a 500', async () => {
    const pair = await freshPair();
    const values = [
      generateToken(TokenPrefix.accessToken),
      generateToken(TokenPrefix.personalAccessToken),
      alterChar(pair.access_token, -1),
      pair.refresh_token,
      app.clientSecret,
      'nope',
      '%%%',
      '\u0000',
      'lko_',
      'é'.repeat(500),
    ];
    for (const token of values) await expectInactive(await introspect(token), JSON.stringify(token.slice(0, 20)));
  });

  it('OI-11 an expired token is {"active":false}', async () => {
    const pair = await freshPair();
    const pat = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
      userId: user.id,
      name: 'short',
      expiresAt: system.clock.now() + 60_000,
    });
    const start = system.clock.now();
    try {
      system.clock.advance(60_000);
      await expectInactive(await introspect(pat.token), 'expired PAT');
      system.clock.set(start + Number(pair.expires_in) * 1000);
      await expectInactive(await introspect(pair.access_token), 'expired OAuth token');
    } finally {
      system.clock.set(start);
    }
    expect(await expectJson(await introspect(pair.access_token))).toMatchObject({ active: true });
  });

  it('OI-11 a token of a revoked grant, or of a revoked client, is {"active":false}', async () => {
    const granted = await makeClient(system, owner, { name: 'Granted App' });
    const grantPair = await freshPair(granted);
    await revokeApplicationAccess(system.db, system.clock, user.id, granted.client.id);
    await expectInactive(await introspect(grantPair.access_token), 'revoked grant');

    const doomed = await makeClient(system, owner, { name: 'Doomed App' });
    const doomedPair = await freshPair(doomed);
    expect(await expectJson(await introspect(doomedPair.access_token))).toMatchObject({ active: true });
    await revokeClient(system.db, system.clock, doomed.client.id);
    await expectInactive(await introspect(doomedPair.access_token), 'revoked client');
    // A revoked client cannot introspect either: its credentials fail (CA-02).
    await expectOAuthError(await introspect(grantPair.access_token, doomed), 401, 'invalid_client');
  });

  it('OI-11 without client authentication it is 401 invalid_client: no credentials, a client_id alone (public or not), a wrong secret', async () => {
    const pair = await freshPair();
    const spa = await makePublicClient(system, owner, ['https://spa.example/cb']);
    await expectOAuthError(await postForm(introspectUrl(), { token: pair.access_token }), 401, 'invalid_client');
    await expectOAuthError(
      await postForm(introspectUrl(), { token: pair.access_token, client_id: spa.id }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await postForm(introspectUrl(), { token: pair.access_token, client_id: other.client.id }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await postForm(introspectUrl(), { token: pair.access_token, client_id: spa.id, client_secret: 'lks_guess' }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await postForm(
        introspectUrl(),
        { token: pair.access_token },
        { authorization: basicAuth(other.client.id, app.clientSecret) },
      ),
      401,
      'invalid_client',
      { wwwAuthenticate: 'Basic realm="latchkey"' },
    );
    // An access token is not a client credential here either.
    await expectOAuthError(
      await postForm(introspectUrl(), { token: pair.access_token }, { authorization: `Bearer ${pair.access_token}` }),
      401,
      'invalid_client',
    );
  });

  it('OI-11 a bad form is 400 invalid_request: no token, an empty or repeated one, JSON, bad encoding; too large is 413', async () => {
    const pair = await freshPair();
    const creds = { client_id: other.client.id, client_secret: other.clientSecret };
    await expectOAuthError(await postForm(introspectUrl(), creds), 400, 'invalid_request');
    await expectOAuthError(await postForm(introspectUrl(), { ...creds, token: '' }), 400, 'invalid_request');
    const repeated = new URLSearchParams({ ...creds, token: pair.access_token });
    repeated.append('token', pair.access_token);
    await expectOAuthError(await postForm(introspectUrl(), repeated), 400, 'invalid_request');
    const json = await fetch(introspectUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...creds, token: pair.access_token }),
    });
    await expectOAuthError(json, 400, 'invalid_request');
    await expectOAuthError(await postForm(introspectUrl(), 'token=%ZZ'), 400, 'invalid_request');
    await expectOAuthError(
      await postForm(introspectUrl(), { ...creds, token: 'a'.repeat(11 * 1024) }),
      413,
      'invalid_request',
    );
  });

  it('OI-11 GET, PUT and DELETE are 405 with Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(introspectUrl(), { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    }
  });

  it('OI-11 is server to server: no CORS for a registered origin; failed authentications draw on the client-auth allowance', async () => {
    const spaOrigin = 'https://spa.example';
    await makeClient(system, owner, { name: 'Spa', redirectUri: `${spaOrigin}/callback` });
    const preflight = await fetch(introspectUrl(), {
      method: 'OPTIONS',
      headers: { origin: spaOrigin, 'access-control-request-method': 'POST' },
    });
    expect([...preflight.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const pair = await freshPair();
    const answer = await introspect(pair.access_token, other, {});
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const withOrigin = await postForm(
      introspectUrl(),
      { token: pair.access_token, client_id: other.client.id, client_secret: other.clientSecret },
      { origin: spaOrigin },
    );
    expect(withOrigin.status).toBe(200);
    expect(withOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('ratelimit')).toContain('"client-auth-address"');
  });
});

/** A pair whose audience is a registered resource server, as a code for it (RS-03) would give. */
async function pairFor(audience: string): Promise<TokenResponse> {
  const code = await issueAuthorizationCode(system.db, system.clock, {
    client: app.client,
    userId: user.id,
    redirectUri: app.client.redirectUris[0]!,
    codeChallenge: null,
    scopes: ['profile'],
    audience,
  });
  return expectTokenResponse(await exchangeCode(system, app, code));
}

describe('RS-10 introspection answers the audience', () => {
  it("RS-10 a token for a registered resource server has its URI as aud, normalised as registered; the API's has API_URL", async () => {
    const reports = await createResourceServer(system.db, system.clock, system.apiUrl, {
      uri: 'HTTPS://Reports.Example:443/api',
      name: 'Reports',
    });
    expect(reports.uri).toBe('https://reports.example/api');
    const pair = await pairFor(reports.id);
    const body = await expectJson(await introspect(pair.access_token));
    expect(body).toEqual({
      active: true,
      scope: 'profile',
      client_id: app.client.id,
      sub: user.id,
      exp: nowSeconds() + Number(pair.expires_in),
      iat: nowSeconds(),
      aud: 'https://reports.example/api',
      token_type: 'Bearer',
    });
    // The same client's token for the Latchkey API names the API, never the other server.
    const api = await expectJson(await introspect((await freshPair()).access_token));
    expect(api.aud).toBe(system.apiUrl);
    expect(api.aud).not.toBe(body.aud);
  });

  it('RS-10 RS-09 once its resource server is revoked, the token is {"active":false}; the API\'s tokens stay active', async () => {
    const billing = await createResourceServer(system.db, system.clock, system.apiUrl, {
      uri: 'https://billing.example',
      name: 'Billing',
    });
    const pair = await pairFor(billing.id);
    const apiPair = await freshPair();
    expect(await expectJson(await introspect(pair.access_token))).toMatchObject({
      active: true,
      aud: 'https://billing.example/',
    });
    await revokeResourceServer(system.db, system.clock, billing.id);
    await expectInactive(await introspect(pair.access_token), 'token of a revoked resource server');
    expect(await expectJson(await introspect(apiPair.access_token))).toMatchObject({
      active: true,
      aud: system.apiUrl,
    });
  });

  it('RS-10 a token whose resource server row is revoked is inactive even if the token itself was not reached', async () => {
    const legacy = await createResourceServer(system.db, system.clock, system.apiUrl, {
      uri: 'https://legacy.example/v1',
      name: 'Legacy',
    });
    const pair = await pairFor(legacy.id);
    // Only the row, as if a grant had slipped past the revocation's sweep.
    await system.db
      .updateTable('resource_servers')
      .set({ revoked_at: system.clock.now() })
      .where('id', '=', legacy.id)
      .execute();
    await expectInactive(await introspect(pair.access_token), 'token of a revoked resource server, token untouched');
  });
});
