import { describe, expect, it } from 'vitest';
import { makeCode, makePat } from '#test/support/fixtures.ts';
import {
  accessTokenWorks,
  basicAuth,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  postForm,
  refreshWith,
  revokeUrl,
  type ClientCredentialsFixture,
  type TokenResponse,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// RFC 7009 token revocation (D-5): RV-07, RV-08 and the endpoint's bad input.
const { system, user, app, other } = useTokenEndpoint({}, { userOwnsClients: true });

async function freshPair(creds: ClientCredentialsFixture = app): Promise<TokenResponse> {
  const code = await makeCode(system, creds.client, user);
  return expectTokenResponse(await exchangeCode(system, creds, code));
}

function revoke(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return postForm(revokeUrl(system), form, headers);
}

/** CL-01: 200 with `{}` as JSON (RFC 7009 allows any body; JSON-only clients need one). */
async function expectRevoked200(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(await res.text()).toBe('{}');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('www-authenticate')).toBeNull();
}

async function stillWorks(pair: TokenResponse, creds = app): Promise<void> {
  expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
  await expectTokenResponse(await refreshWith(system, creds, pair.refresh_token));
}

describe('RFC 7009 POST /oauth/revoke', () => {
  it('CL-01 revoking a refresh token answers {} as JSON and kills its access token too (RFC 7009 §2.1, the whole grant)', async () => {
    const pair = await freshPair();
    await expectRevoked200(
      await revoke({ token: pair.refresh_token, client_id: app.client.id, client_secret: app.clientSecret }),
    );
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
  });

  it('revoking an access token kills its refresh token too; Basic authentication works', async () => {
    const pair = await freshPair();
    await expectRevoked200(
      await revoke({ token: pair.access_token }, { authorization: basicAuth(app.client.id, app.clientSecret) }),
    );
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
  });

  it('token_type_hint is only a hint: a wrong hint still revokes', async () => {
    const pair = await freshPair();
    await expectRevoked200(
      await revoke({
        token: pair.refresh_token,
        token_type_hint: 'access_token',
        client_id: app.client.id,
        client_secret: app.clientSecret,
      }),
    );
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
  });

  it('RV-08 an unknown, malformed or already revoked token answers 200 (RFC 7009 §2.2)', async () => {
    const creds = { client_id: app.client.id, client_secret: app.clientSecret };
    for (const token of ['nope', 'lkr_000000000000000000000000000000000000', 'lko_unknown', '%%%']) {
      await expectRevoked200(await revoke({ token, ...creds }));
    }
    const pair = await freshPair();
    await expectRevoked200(await revoke({ token: pair.refresh_token, ...creds }));
    await expectRevoked200(await revoke({ token: pair.refresh_token, ...creds })); // RV-07 idempotent
  });

  it("RV-08 another client's token answers 200 exactly like its own would, and is NOT revoked", async () => {
    const victim = await freshPair(other);
    const ownRes = await revoke({ token: 'lkr_unknown', client_id: app.client.id, client_secret: app.clientSecret });
    const foreignRefresh = await revoke({
      token: victim.refresh_token,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    const foreignAccess = await revoke({
      token: victim.access_token,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    for (const res of [ownRes, foreignRefresh, foreignAccess]) await expectRevoked200(res);
    await stillWorks(victim, other);
  });

  it('a personal access token is not an OAuth token of the client: 200 and it keeps working', async () => {
    const pat = await makePat(system, user);
    await expectRevoked200(await revoke({ token: pat, client_id: app.client.id, client_secret: app.clientSecret }));
    expect(await accessTokenWorks(system, pat)).toBe(true);
  });

  it('a missing or empty token is invalid_request; a repeated one too', async () => {
    const pair = await freshPair();
    const creds = { client_id: app.client.id, client_secret: app.clientSecret };
    await expectOAuthError(await revoke(creds), 400, 'invalid_request');
    await expectOAuthError(await revoke({ ...creds, token: '' }), 400, 'invalid_request');
    const repeated = new URLSearchParams({ ...creds, token: pair.refresh_token });
    repeated.append('token', pair.access_token);
    await expectOAuthError(await postForm(revokeUrl(system), repeated), 400, 'invalid_request');
    await stillWorks(pair);
  });

  it('client authentication is required and fails like at the token endpoint (CA-02, CA-03, CA-04)', async () => {
    const pair = await freshPair();
    await expectOAuthError(await revoke({ token: pair.refresh_token }), 401, 'invalid_client');
    await expectOAuthError(
      await revoke({ token: pair.refresh_token, client_id: app.client.id }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await revoke({ token: pair.refresh_token, client_id: app.client.id, client_secret: other.clientSecret }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await revoke({ token: pair.refresh_token }, { authorization: basicAuth(app.client.id, other.clientSecret) }),
      401,
      'invalid_client',
      { wwwAuthenticate: 'Basic realm="latchkey"' },
    );
    await expectOAuthError(
      await revoke(
        { token: pair.refresh_token, client_secret: app.clientSecret },
        { authorization: basicAuth(app.client.id, app.clientSecret) },
      ),
      400,
      'invalid_request',
    );
    // Only Bearer: the access token is not a client credential (D-2).
    await expectOAuthError(
      await revoke({ token: pair.refresh_token }, { authorization: `Bearer ${pair.access_token}` }),
      401,
      'invalid_client',
    );
    await stillWorks(pair);
  });

  it('GET and PUT are 405 with Allow: POST; JSON and text bodies are invalid_request', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(revokeUrl(system), { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    }
    const pair = await freshPair();
    const json = await fetch(revokeUrl(system), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: pair.refresh_token, client_id: app.client.id, client_secret: app.clientSecret }),
    });
    await expectOAuthError(json, 400, 'invalid_request');
    await expectOAuthError(await postForm(revokeUrl(system), 'token=%ZZ'), 400, 'invalid_request');
    await expectOAuthError(await postForm(revokeUrl(system), { token: 'a'.repeat(11 * 1024) }), 413, 'invalid_request');
    await stillWorks(pair);
  });
});
