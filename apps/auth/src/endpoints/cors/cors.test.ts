import { describe, expect, it } from 'vitest';
import { revokeClient } from '@latchkey/core';
import { CORS_MAX_AGE_SECONDS } from '@latchkey/http';
import { anOutage } from '#test/support/faults.ts';
import { makeClient, makeCode, makePat, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { callAccount, issueThirdPartyTokens } from '../../account/account.fixture.ts';
import { exchangeCode, postForm, revokeUrl, tokenUrl } from '../oauth-json/oauth-endpoint.fixture.ts';

// PC-07, PC-08, PC-09: CORS for browser apps on the authorization server, over real HTTP.

const SPA = 'https://spa.example';
const system = useSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: '10000' });
const { owner, user } = useUsers(system, { owner: 'Spa Owner', user: 'Dorothy Vaughan' });
const { spa } = perFile(async () => ({ spa: await makeClient(system, owner, { redirectUris: [`${SPA}/callback`] }) }));

const ENDPOINTS = [
  { path: '/.well-known/oauth-authorization-server', method: 'GET', methods: 'GET' },
  { path: '/oauth/token', method: 'POST', methods: 'POST' },
  { path: '/oauth/revoke', method: 'POST', methods: 'POST' },
  { path: '/oauth/userinfo', method: 'GET', methods: 'GET,POST' },
] as const;

function preflight(path: string, origin: string, method = 'POST'): Promise<Response> {
  return fetch(`${system.authUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  });
}

function corsHeaderNames(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

function expectVaryOrigin(response: Response): void {
  expect(response.headers.get('vary')?.split(/\s*,\s*/)).toContain('Origin');
}

/** PC-07: what an allowed origin's actual request gets, success or error. */
function expectAllowed(response: Response, origin = SPA): void {
  expect(response.headers.get('access-control-allow-origin')).toBe(origin);
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  expect(response.headers.get('access-control-expose-headers')?.split(',')).toEqual(
    expect.arrayContaining(['WWW-Authenticate', 'Retry-After']),
  );
  expectVaryOrigin(response);
}

function expectRefusedPreflight(response: Response, label: string): void {
  expect(response.status, label).toBe(204);
  expect(corsHeaderNames(response), label).toEqual([]);
}

describe('PC-07 CORS from the origin of a registered redirect URL', () => {
  it('PC-07 a preflight to the metadata, token, revocation and userinfo endpoints: 204 with the exact origin, methods, headers, max-age, Vary: Origin, never credentials', async () => {
    for (const { path, method, methods } of ENDPOINTS) {
      const response = await preflight(path, SPA, method);
      expect(response.status, path).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), path).toBe(SPA);
      expect(response.headers.get('access-control-allow-methods'), path).toBe(methods);
      expect(response.headers.get('access-control-allow-headers'), path).toBe('Authorization,Content-Type');
      expect(response.headers.get('access-control-max-age'), path).toBe(String(CORS_MAX_AGE_SECONDS));
      expect(response.headers.get('access-control-allow-credentials'), path).toBeNull();
      expectVaryOrigin(response);
    }
  });

  it('PC-07 actual requests: the metadata, a code exchange, a revocation and userinfo carry the origin and expose WWW-Authenticate', async () => {
    const headers = { origin: SPA };
    const metadata = await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`, { headers });
    expect(metadata.status).toBe(200);
    expectAllowed(metadata);

    const exchange = await exchangeCode(system, spa, await makeCode(system, spa.client, user), {}, headers);
    expect(exchange.status).toBe(200);
    expectAllowed(exchange);
    const { access_token: accessToken, refresh_token: refreshToken } = (await exchange.json()) as Record<
      string,
      string
    >;

    for (const method of ['GET', 'POST']) {
      const userinfo = await fetch(`${system.authUrl}/oauth/userinfo`, {
        method,
        headers: { ...headers, authorization: `Bearer ${accessToken}` },
      });
      expect(userinfo.status, method).toBe(200);
      expectAllowed(userinfo);
    }

    const revocation = await postForm(
      revokeUrl(system),
      { token: refreshToken!, client_id: spa.client.id, client_secret: spa.clientSecret },
      headers,
    );
    expect(revocation.status).toBe(200);
    expectAllowed(revocation);
  });

  it('PC-07 error answers are readable too: invalid_grant 400, invalid_client 401, userinfo 401 with its challenge', async () => {
    const headers = { origin: SPA };
    const badGrant = await exchangeCode(system, spa, 'not-a-code', {}, headers);
    expect(badGrant.status).toBe(400);
    expect(await badGrant.json()).toMatchObject({ error: 'invalid_grant' });
    expectAllowed(badGrant);

    const badClient = await exchangeCode(system, { ...spa, clientSecret: 'wrong' }, 'not-a-code', {}, headers);
    expect(badClient.status).toBe(401);
    expectAllowed(badClient);

    const noToken = await fetch(`${system.authUrl}/oauth/userinfo`, { headers });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expectAllowed(noToken);
  });

  it('PC-07 without Origin nothing is looked up or added but Vary: Origin; OPTIONS without Origin is refused as before', async () => {
    const metadata = await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`);
    expect(corsHeaderNames(metadata)).toEqual([]);
    expectVaryOrigin(metadata);
    const options = await fetch(tokenUrl(system), { method: 'OPTIONS' });
    expect(options.status).toBe(405);
    expect(corsHeaderNames(options)).toEqual([]);
  });
});

describe('PC-08 no CORS for any other origin, nor on the pages and the account API', () => {
  const OTHERS = [
    'https://evil.example',
    'https://spa.example.evil',
    'http://spa.example',
    'https://spa.example:8443',
    'null',
  ];

  it('PC-08 an unregistered or look-alike origin: its preflight is answered 204 with no Access-Control-* header, never by the endpoint', async () => {
    for (const origin of OTHERS) {
      for (const { path, method } of ENDPOINTS) {
        const response = await preflight(path, origin, method);
        expectRefusedPreflight(response, `${origin} ${path}`);
        expectVaryOrigin(response);
      }
    }
  });

  it('PC-08 an unregistered or look-alike origin: actual requests get their answer without Access-Control-Allow-Origin', async () => {
    for (const origin of OTHERS) {
      const metadata = await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`, { headers: { origin } });
      expect(metadata.status, origin).toBe(200);
      expect(corsHeaderNames(metadata), origin).toEqual([]);
      const token = await exchangeCode(system, spa, 'not-a-code', {}, { origin });
      expect(token.status, origin).toBe(400);
      expect(corsHeaderNames(token), origin).toEqual([]);
      const userinfo = await fetch(`${system.authUrl}/oauth/userinfo`, { headers: { origin } });
      expect(userinfo.status, origin).toBe(401);
      expect(corsHeaderNames(userinfo), origin).toEqual([]);
    }
  });

  it('PC-08 sign-in, sign-up, consent, /oauth/authorize, /oauth/logout and /account/* send no CORS headers even to the registered origin', async () => {
    const authorize = `/oauth/authorize?response_type=code&client_id=${spa.client.id}&redirect_uri=${encodeURIComponent(`${SPA}/callback`)}&state=s`;
    for (const path of [
      '/signin',
      '/signup',
      '/oauth/authorize/decision',
      authorize,
      '/oauth/logout',
      '/account/me',
      '/',
    ]) {
      for (const method of ['OPTIONS', 'GET']) {
        const response = await fetch(`${system.authUrl}${path}`, {
          method,
          headers: { origin: SPA, ...(method === 'OPTIONS' ? { 'access-control-request-method': 'POST' } : {}) },
          redirect: 'manual',
        });
        expect(corsHeaderNames(response), `${method} ${path}`).toEqual([]);
      }
    }
    const account = await callAccount(system, 'GET', '/account/me', {
      token: await makePat(system, user),
      headers: { origin: SPA },
    });
    expect([...account.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('PC-09 a revoked client', () => {
  it('PC-09 its origins stop being allowed at once; an origin another active client registered stays allowed', async () => {
    const gone = 'https://gone.example';
    const shared = 'https://shared.example';
    const { client } = await makeClient(system, owner, { redirectUris: [`${gone}/cb`, `${shared}/cb`] });
    await makeClient(system, owner, { redirectUris: [`${shared}/other`] });
    const { accessToken } = await issueThirdPartyTokens(system, client, user);
    expect((await preflight('/oauth/token', gone)).headers.get('access-control-allow-origin')).toBe(gone);

    await revokeClient(system.db, system.clock, client.id);
    expectRefusedPreflight(await preflight('/oauth/token', gone), 'preflight after revocation');
    const userinfo = await fetch(`${system.authUrl}/oauth/userinfo`, {
      headers: { origin: gone, authorization: `Bearer ${accessToken}` },
    });
    expect(userinfo.status).toBe(401);
    expect(corsHeaderNames(userinfo)).toEqual([]);
    expect((await preflight('/oauth/token', shared)).headers.get('access-control-allow-origin')).toBe(shared);
  });
});

describe('D-10 the origin lookup during an outage', () => {
  it('PC-07 a request with Origin is 503 with Retry-After, never a refusal; one without Origin makes no lookup', async () => {
    system.faults.failQueriesOn('clients', anOutage);
    try {
      const refused = await preflight('/oauth/token', SPA);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      const token = await exchangeCode(system, spa, 'not-a-code', {}, { origin: SPA });
      expect(token.status).toBe(503);
      expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
      const metadata = await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`);
      expect(metadata.status).toBe(200);
    } finally {
      system.faults.clear();
    }
  });
});
