import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anOutage } from '#test/support/faults.ts';
import { createPersonalAccessToken, redeemAuthorizationCode } from '@latchkey/core';
import type { Scope } from '@latchkey/contracts';
import { makeAccessToken, makeClient, makePat, makeResourceServer, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { issueThirdPartyTokens, lifetimesOf } from '../../account/account.fixture.ts';
import { makeScopedCode } from '../oauth-json/oauth-endpoint.fixture.ts';

// CL-02: the userinfo endpoint the sign-in libraries (Auth.js, next-auth, passport strategies)
// read the signed-in user from.
let system: TestSystem;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(async () => {
  await system?.close();
});

function userinfo(init: { token?: string; method?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${system.authUrl}/oauth/userinfo`, {
    method: init.method ?? 'GET',
    headers: { ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }), ...init.headers },
  });
}

describe('CL-02 GET and POST /oauth/userinfo', () => {
  it('CL-02 an OAuth access token: { sub, name, email }, sub the stable user id and never the email; no-store', async () => {
    const owner = await makeUser(system, 'App Owner');
    const person = await makeUser(system, 'Katherine Johnson');
    const { client } = await makeClient(system, owner);
    const pair = await issueThirdPartyTokens(system, client, person);
    for (const method of ['GET', 'POST']) {
      const answer = await userinfo({ token: pair.accessToken, method });
      expect(answer.status, method).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body).toEqual({ sub: person.id, name: 'Katherine Johnson', email: person.email, email_verified: false });
      expect(body.sub).not.toContain('@');
    }
  });

  it('CL-02 a personal access token works too', async () => {
    const person = await makeUser(system, 'Mary Jackson');
    const answer = await userinfo({ token: await makePat(system, person) });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ sub: person.id, name: 'Mary Jackson' });
  });

  it('SC-09 OI-12 `email` and `email_verified` (false) only with the `email` scope, `name` only with `profile`; `sub` always (OAuth tokens and PATs)', async () => {
    const owner = await makeUser(system, 'Scope Owner');
    const person = await makeUser(system, 'Annie Easley');
    const { client } = await makeClient(system, owner);
    const oauthToken = async (scopes: Scope[]) => {
      const code = await makeScopedCode(system, client, person, scopes);
      const pair = await redeemAuthorizationCode(system.db, system.clock, lifetimesOf(system), {
        client,
        code,
        redirectUri: client.redirectUris[0]!,
        codeVerifier: undefined,
      });
      return pair.accessToken;
    };
    const pat = async (scopes: Scope[]) =>
      (
        await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
          userId: person.id,
          name: `userinfo ${scopes.join(' ')}`,
          scopes,
        })
      ).token;
    // OI-12: Latchkey does not verify addresses yet, so it never claims one is verified.
    const email = { email: person.email, email_verified: false };
    const expected = {
      profile: { sub: person.id, name: 'Annie Easley' },
      email: { sub: person.id, ...email },
      'profile email': { sub: person.id, name: 'Annie Easley', ...email },
    };
    for (const [scope, body] of Object.entries(expected)) {
      const scopes = scope.split(' ') as Scope[];
      for (const token of [await oauthToken(scopes), await pat(scopes)]) {
        const answer = await userinfo({ token });
        expect(answer.status, scope).toBe(200);
        expect(await answer.json(), scope).toEqual(body);
      }
    }
    // An OpenID Connect sign-in's token (OI-01) answers the same claims: `openid` adds none.
    const oidc = await userinfo({ token: await oauthToken(['openid', 'profile', 'email']) });
    expect(await oidc.json()).toEqual(expected['profile email']);
    expect(await (await userinfo({ token: await oauthToken(['openid']) })).json()).toEqual({ sub: person.id });
  });

  it('RS-23 a token minted for another resource server is 401 invalid_token here: that server cannot read the user with it', async () => {
    const owner = await makeUser(system, 'Resource Owner');
    const person = await makeUser(system, 'Dorothy Vaughan');
    const { client } = await makeClient(system, owner);
    const server = await makeResourceServer(system);
    const scopes: Scope[] = ['openid', 'profile', 'email'];

    const foreign = await makeAccessToken(system, client, person, { audience: server.id, scopes });
    for (const method of ['GET', 'POST']) {
      const refused = await userinfo({ token: foreign, method });
      expect(refused.status, method).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="userinfo", error="invalid_token"');
      const body = await refused.text();
      expect(JSON.parse(body)).toMatchObject({
        error: 'invalid_token',
        error_description: expect.stringMatching(/another resource server/),
      });
      expect(body).not.toContain(person.email);
    }
    // The same client, user and scopes, for Latchkey itself: the claims.
    const own = await userinfo({ token: await makeAccessToken(system, client, person, { scopes }) });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({
      sub: person.id,
      name: 'Dorothy Vaughan',
      email: person.email,
      email_verified: false,
    });
  });

  it('CL-02 no token: 401 with a bare Bearer challenge; a bad token: 401 invalid_token; a malformed header: 400 invalid_request', async () => {
    const none = await userinfo();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="userinfo"');

    const bad = await userinfo({ token: 'lka_thisisnotavalidtokenatallxxxxxxxxxxx' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="userinfo", error="invalid_token"');
    expect(await bad.json()).toMatchObject({ error: 'invalid_token' });

    const malformed = await userinfo({ headers: { authorization: 'Bearer' } });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('www-authenticate')).toBe('Bearer realm="userinfo", error="invalid_request"');
  });

  it('CL-02 other methods: 405 with Allow', async () => {
    const answer = await userinfo({ method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('D-10 CL-02 a token that cannot be checked: 503 with Retry-After, never 401', async () => {
    const person = await makeUser(system, 'Dorothy Vaughan');
    const pat = await makePat(system, person);
    system.faults.failEveryQuery(anOutage);
    try {
      const answer = await userinfo({ token: pat });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
    } finally {
      system.faults.clear();
    }
  });

  it('CL-02 the metadata advertises userinfo_endpoint and service_documentation (the developer portal)', async () => {
    const metadata = (await (await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.userinfo_endpoint).toBe(`${system.authUrl}/oauth/userinfo`);
    expect(metadata.service_documentation).toBe(`${system.config.portal.url}/`);
  });
});
