import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUESTABLE_SCOPES } from '@latchkey/contracts';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';

let system: TestSystem;
let response: Response;
let metadata: Record<string, unknown>;

beforeAll(async () => {
  system = await startSystem();
  response = await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`);
  metadata = (await response.json()) as Record<string, unknown>;
});
afterAll(async () => {
  await system?.close();
});

describe('RFC 8414 authorization server metadata', () => {
  it('is JSON at /.well-known/oauth-authorization-server', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('RFC 8414 §3.3: issuer is exactly the configured auth URL and endpoints live under it', () => {
    expect(metadata.issuer).toBe(system.config.auth.url);
    expect(metadata.authorization_endpoint).toBe(`${system.authUrl}/oauth/authorize`);
    expect(metadata.token_endpoint).toBe(`${system.authUrl}/oauth/token`);
    expect(metadata.device_authorization_endpoint).toBe(`${system.authUrl}/oauth/device_authorization`);
    expect(metadata.revocation_endpoint).toBe(`${system.authUrl}/oauth/revoke`);
    expect(metadata.introspection_endpoint).toBe(`${system.authUrl}/oauth/introspect`);
    expect(metadata.jwks_uri).toBe(`${system.authUrl}/.well-known/jwks.json`);
  });

  it('PK-10 code_challenge_methods_supported is exactly ["S256"]', () => {
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('DD-2 CL-02 advertises only what exists: code flow, the three grants (DV-03: the device code grant and its endpoint), post, basic and none client auth, iss on responses, end session, userinfo, the developer portal as documentation', () => {
    expect(metadata).toMatchObject({
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(Object.keys(metadata).sort()).toEqual(
      [
        'issuer',
        'authorization_endpoint',
        'token_endpoint',
        'device_authorization_endpoint',
        'revocation_endpoint',
        'introspection_endpoint',
        'jwks_uri',
        'end_session_endpoint',
        'userinfo_endpoint',
        'service_documentation',
        'response_types_supported',
        'response_modes_supported',
        'grant_types_supported',
        'token_endpoint_auth_methods_supported',
        'revocation_endpoint_auth_methods_supported',
        'introspection_endpoint_auth_methods_supported',
        'code_challenge_methods_supported',
        'authorization_response_iss_parameter_supported',
        'scopes_supported',
        'client_id_metadata_document_supported',
      ].sort(),
    );
  });

  it('PC-11 lists none (a public client: client_id, no secret) at the token and revocation endpoints', () => {
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
    expect(metadata.revocation_endpoint_auth_methods_supported).toContain('none');
  });

  it('SC-09 OI-07 scopes_supported lists what any client may ask for, from the registry: openid and the third-party scopes, never `account`', () => {
    expect(metadata.scopes_supported).toEqual([...REQUESTABLE_SCOPES]);
    expect(metadata.scopes_supported).toEqual(['openid', 'profile', 'email']);
  });

  it('the authorization endpoint it names is the one that answers', async () => {
    const page = await fetch(`${metadata.authorization_endpoint as string}?client_id=x`, { redirect: 'manual' });
    expect(page.status).toBe(400);
  });
});

/** OpenID Connect Discovery 1.0 §3: what every OpenID Provider's document MUST hold. */
const DISCOVERY_REQUIRED = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  'response_types_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
];

describe('OI-07 OpenID Connect Discovery at /.well-known/openid-configuration', () => {
  const OPENID_PATH = '/.well-known/openid-configuration';
  let openid: Record<string, unknown>;
  let answer: Response;

  beforeAll(async () => {
    answer = await fetch(`${system.authUrl}${OPENID_PATH}`);
    openid = (await answer.json()) as Record<string, unknown>;
  });

  it('OI-07 is public, cacheable JSON whose issuer is exactly the URL it was fetched under (Discovery §4.3)', () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(`${openid.issuer as string}${OPENID_PATH}`).toBe(answer.url);
    expect(openid.issuer).toBe(system.config.auth.url);
    const issuer = new URL(openid.issuer as string);
    expect(issuer.search + issuer.hash).toBe('');
  });

  it('OI-07 holds every field Discovery §3 requires, with the values an OpenID Provider must support', () => {
    for (const field of DISCOVERY_REQUIRED) expect(openid, field).toHaveProperty(field);
    expect(openid.response_types_supported).toContain('code');
    // Discovery §3: RS256 MUST be listed.
    expect(openid.id_token_signing_alg_values_supported).toEqual(['RS256', 'ES256']);
    expect(openid.subject_types_supported).toEqual(['public']);
    expect(openid.scopes_supported).toContain('openid');
    for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint']) {
      expect(openid[field] as string, field).toMatch(new RegExp(`^${system.authUrl}/`));
    }
  });

  it('OI-07 states the same facts as the RFC 8414 document, every field with the same value, plus the OpenID ones', () => {
    for (const [field, value] of Object.entries(metadata)) expect(openid[field], field).toEqual(value);
    const added = Object.keys(openid).filter((field) => !(field in metadata));
    expect(added.sort()).toEqual(
      [
        'subject_types_supported',
        'prompt_values_supported',
        'id_token_signing_alg_values_supported',
        'claims_supported',
        'claims_parameter_supported',
        'request_parameter_supported',
        'request_uri_parameter_supported',
      ].sort(),
    );
    expect(openid).toMatchObject({
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
    });
    expect(openid.claims_supported).toEqual(
      expect.arrayContaining([
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'at_hash',
        'name',
        'email',
        'email_verified',
      ]),
    );
    // OI-16: the prompt values the authorization endpoint acts on, none included.
    expect(openid.prompt_values_supported).toEqual(['none', 'login', 'consent']);
  });

  it('OI-07 OI-11 both documents list the introspection endpoint, which takes client secrets only', () => {
    for (const document of [metadata, openid]) {
      expect(document.introspection_endpoint).toBe(`${system.authUrl}/oauth/introspect`);
      expect(document.introspection_endpoint_auth_methods_supported).toEqual([
        'client_secret_post',
        'client_secret_basic',
      ]);
      expect(document.jwks_uri).toBe(`${system.authUrl}/.well-known/jwks.json`);
    }
  });

  it('OI-07 the endpoints it names are the ones that answer: the key set, introspection and userinfo', async () => {
    const jwks = await fetch(openid.jwks_uri as string);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    expect(
      (
        await fetch(openid.introspection_endpoint as string, {
          method: 'POST',
          body: new URLSearchParams({ token: 'x' }),
        })
      ).status,
    ).toBe(401);
    expect((await fetch(openid.userinfo_endpoint as string)).status).toBe(401);
  });

  it('OI-07 OI-08 a browser app on a registered origin may read both documents and the key set (CORS); others get no CORS header', async () => {
    const owner = await makeUser(system, 'Spa Owner');
    await makeClient(system, owner, { redirectUri: 'https://spa.example/callback' });
    for (const path of [OPENID_PATH, '/.well-known/jwks.json', '/.well-known/oauth-authorization-server']) {
      const allowed = await fetch(`${system.authUrl}${path}`, { headers: { origin: 'https://spa.example' } });
      expect(allowed.status, path).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin'), path).toBe('https://spa.example');
      const other = await fetch(`${system.authUrl}${path}`, { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});
