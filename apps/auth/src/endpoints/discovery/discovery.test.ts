import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THIRD_PARTY_SCOPES } from '@latchkey/contracts';
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
    expect(metadata.revocation_endpoint).toBe(`${system.authUrl}/oauth/revoke`);
  });

  it('PK-10 code_challenge_methods_supported is exactly ["S256"]', () => {
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('DD-2 CL-02 advertises only what exists: code flow, the two grants, post, basic and none client auth, iss on responses, end session, userinfo, the developer portal as documentation', () => {
    expect(metadata).toMatchObject({
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(Object.keys(metadata).sort()).toEqual(
      [
        'issuer',
        'authorization_endpoint',
        'token_endpoint',
        'revocation_endpoint',
        'end_session_endpoint',
        'userinfo_endpoint',
        'service_documentation',
        'response_types_supported',
        'response_modes_supported',
        'grant_types_supported',
        'token_endpoint_auth_methods_supported',
        'revocation_endpoint_auth_methods_supported',
        'code_challenge_methods_supported',
        'authorization_response_iss_parameter_supported',
        'scopes_supported',
      ].sort(),
    );
  });

  it('PC-11 lists none (a public client: client_id, no secret) at the token and revocation endpoints', () => {
    expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
    expect(metadata.revocation_endpoint_auth_methods_supported).toContain('none');
  });

  it('SC-09 scopes_supported lists what any client may ask for: the third-party scopes, never `account` or `openid`', () => {
    expect(metadata.scopes_supported).toEqual([...THIRD_PARTY_SCOPES]);
    expect(metadata.scopes_supported).toEqual(['profile', 'email']);
  });

  it('the authorization endpoint it names is the one that answers', async () => {
    const page = await fetch(`${metadata.authorization_endpoint as string}?client_id=x`, { redirect: 'manual' });
    expect(page.status).toBe(400);
  });
});
