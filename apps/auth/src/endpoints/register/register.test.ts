// Issue 32: dynamic client registration (RFC 7591) and its management (RFC 7592, read and
// delete) with DYNAMIC_CLIENT_REGISTRATION=open, over real HTTP on both engines.
import { describe, expect, it } from 'vitest';
import { digest } from '@latchkey/credentials';
import { CookieJar, openAuthorize } from '#test/support/browserless-flow.ts';
import { pkcePair } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { accessTokenWorks, expectOAuthError, postForm, tokenUrl } from '../oauth-json/oauth-endpoint.fixture.ts';
import {
  clientOf,
  CONFIDENTIAL_REDIRECT,
  confidentialMetadata,
  countClients,
  expectRegistrationError,
  manageRegistration,
  postRegistration,
  profileAtApi,
  PUBLIC_REDIRECT,
  publicMetadata,
  register,
  registerUrl,
  signInWith,
} from './register.fixture.ts';

const system = useSystem({ DYNAMIC_CLIENT_REGISTRATION: 'open', RATE_LIMIT_REGISTER_PER_HOUR: '10000' });

describe('RFC 7591 dynamic client registration, open', () => {
  it('DR-01 the metadata lists registration_endpoint when registration is on', async () => {
    const metadata = (await (await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`)).json()) as {
      registration_endpoint?: string;
    };
    expect(metadata.registration_endpoint).toBe(registerUrl(system));
  });

  it('DR-04 a public client (none): 201 with its metadata and a registration access token, no secret; no owner, dynamic', async () => {
    const before = Math.floor(system.clock.now() / 1000);
    const registration = await register(system, publicMetadata({ scope: 'openid profile', unknown_field: 'x' }));
    expect(registration).toEqual({
      client_id: expect.stringMatching(/^lkc_[0-9A-Za-z]{24}$/),
      client_id_issued_at: before,
      client_name: 'Agent CLI',
      redirect_uris: [PUBLIC_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'openid profile',
      application_type: 'native',
      registration_access_token: expect.stringMatching(/^lkm_[0-9A-Za-z]{36}$/),
      registration_client_uri: `${registerUrl(system)}/${registration.client_id}`,
    });
    const client = await clientOf(system, registration);
    expect(client).toMatchObject({ ownerId: null, registration: 'dynamic', public: true, requirePkce: true });
    expect(client.scopes).toEqual(['profile']);
  });

  it('DR-04 a confidential client (client_secret_basic, and the default): its secret once, client_secret_expires_at 0', async () => {
    const registration = await register(system, confidentialMetadata());
    expect(registration).toMatchObject({
      client_name: 'Hosted Agent',
      client_uri: 'https://dcr-app.example/',
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid profile email',
      application_type: 'web',
      client_secret: expect.stringMatching(/^lks_[0-9A-Za-z]{36}$/),
      client_secret_expires_at: 0,
    });
    const unnamed = await register(system, { redirect_uris: [CONFIDENTIAL_REDIRECT] });
    expect(unnamed.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(unnamed.client_secret).toBeDefined();
    expect(unnamed.client_name).toBe('Unnamed application');
    const post = await register(system, confidentialMetadata({ token_endpoint_auth_method: 'client_secret_post' }));
    expect(post.token_endpoint_auth_method).toBe('client_secret_post');
    expect((await clientOf(system, post)).public).toBe(false);
  });

  it('DR-09 a registered public client signs a user in (code flow with PKCE) and its token works at the API', async () => {
    const registration = await register(system, publicMetadata());
    const tokens = await signInWith(system, registration);
    expect(await profileAtApi(system, tokens.access_token)).toBe('Dana Dynamic');
  });

  it('DR-10 a registered confidential client signs a user in with its secret (Basic and in the body) and its token works at the API', async () => {
    const basic = await register(system, confidentialMetadata());
    expect(await profileAtApi(system, (await signInWith(system, basic)).access_token)).toBe('Dana Dynamic');
    const post = await register(system, confidentialMetadata({ token_endpoint_auth_method: 'client_secret_post' }));
    const tokens = await signInWith(system, post, { secretInBody: true });
    expect(await profileAtApi(system, tokens.access_token)).toBe('Dana Dynamic');
  });

  it('DR-02 server to server: no cookie is set and no CORS header is given, even to an Origin', async () => {
    const answer = await postRegistration(system, publicMetadata(), { origin: 'http://127.0.0.1' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(registerUrl(system), {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.status).toBe(405);
  });
});

describe('RFC 7591 §3.2.2 invalid metadata is refused and nothing is stored', () => {
  const cases: Array<[string, unknown, 'invalid_redirect_uri' | 'invalid_client_metadata', number?]> = [
    ['no redirect_uris', { client_name: 'A', token_endpoint_auth_method: 'none' }, 'invalid_redirect_uri'],
    ['an empty redirect_uris', publicMetadata({ redirect_uris: [] }), 'invalid_redirect_uri'],
    [
      'a redirect URI with a fragment',
      publicMetadata({ redirect_uris: ['https://a.example/cb#x'] }),
      'invalid_redirect_uri',
    ],
    ['plain http off loopback', publicMetadata({ redirect_uris: ['http://a.example/cb'] }), 'invalid_redirect_uri'],
    ['a javascript: redirect URI', publicMetadata({ redirect_uris: ['javascript:alert(1)'] }), 'invalid_redirect_uri'],
    ['a wildcard', confidentialMetadata({ redirect_uris: ['https://*.example/cb'] }), 'invalid_redirect_uri'],
    [
      'a private-use scheme for a confidential client',
      confidentialMetadata({ redirect_uris: ['com.example.app:/cb'] }),
      'invalid_redirect_uri',
    ],
    [
      '11 redirect URIs',
      publicMetadata({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }),
      'invalid_redirect_uri',
    ],
    ['redirect_uris not an array', publicMetadata({ redirect_uris: 'https://a.example/cb' }), 'invalid_redirect_uri'],
    ['a number in redirect_uris', publicMetadata({ redirect_uris: [42] }), 'invalid_redirect_uri'],
    ['private_key_jwt', publicMetadata({ token_endpoint_auth_method: 'private_key_jwt' }), 'invalid_client_metadata'],
    [
      'client_secret_jwt',
      publicMetadata({ token_endpoint_auth_method: 'client_secret_jwt' }),
      'invalid_client_metadata',
    ],
    ['the implicit grant', publicMetadata({ grant_types: ['implicit'] }), 'invalid_client_metadata'],
    [
      'client_credentials',
      publicMetadata({ grant_types: ['authorization_code', 'client_credentials'] }),
      'invalid_client_metadata',
    ],
    [
      'refresh_token without authorization_code',
      publicMetadata({ grant_types: ['refresh_token'] }),
      'invalid_client_metadata',
    ],
    ['response_types token', publicMetadata({ response_types: ['token'] }), 'invalid_client_metadata'],
    ['the account scope', publicMetadata({ scope: 'profile account' }), 'invalid_client_metadata'],
    ['an unknown scope', publicMetadata({ scope: 'profile admin' }), 'invalid_client_metadata'],
    ['application_type service', publicMetadata({ application_type: 'service' }), 'invalid_client_metadata'],
    ['a client_name of the service', publicMetadata({ client_name: 'Latchkey Login' }), 'invalid_client_metadata'],
    ['a client_name with a bidi override', publicMetadata({ client_name: 'Good\u202Eppa' }), 'invalid_client_metadata'],
    ['a client_name of 101 characters', publicMetadata({ client_name: 'a'.repeat(101) }), 'invalid_client_metadata'],
    ['a client_name that is a number', publicMetadata({ client_name: 7 }), 'invalid_client_metadata'],
    ['a javascript: client_uri', publicMetadata({ client_uri: 'javascript:alert(1)' }), 'invalid_client_metadata'],
    ['a JSON array', [publicMetadata()], 'invalid_client_metadata'],
    ['a JSON string', '"hello"', 'invalid_client_metadata'],
    ['malformed JSON', '{"redirect_uris": [', 'invalid_client_metadata'],
    ['a body of 40 kB', { ...publicMetadata(), client_name: 'x'.repeat(40_000) }, 'invalid_client_metadata', 413],
  ];

  for (const [name, body, error, status] of cases) {
    it(`DR-03 DR-05 ${name}: ${status ?? 400} ${error}`, async () => {
      const before = await countClients(system);
      expectRegistrationError(await postRegistration(system, body), status ?? 400, error);
      expect(await countClients(system)).toBe(before);
    });
  }

  it('DR-05 a form body, or no body: 400 invalid_client_metadata, nothing stored', async () => {
    const before = await countClients(system);
    const form = await fetch(registerUrl(system), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'redirect_uris=https%3A%2F%2Fa.example%2Fcb',
    });
    expectRegistrationError(
      { status: form.status, headers: form.headers, text: '', body: await form.json() },
      400,
      'invalid_client_metadata',
    );
    const none = await fetch(registerUrl(system), { method: 'POST' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe('invalid_client_metadata');
    expect(await countClients(system)).toBe(before);
  });

  it('DR-05 other methods on the endpoint: 405 with Allow: POST, JSON', async () => {
    const answer = await manageRegistration(registerUrl(system), 'GET', undefined);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.error).toBe('invalid_request');
  });
});

describe('RFC 7592 client read and delete with the registration access token', () => {
  it('DR-11 GET registration_client_uri: 200 with the metadata, never the secret nor the token', async () => {
    const registration = await register(system, confidentialMetadata());
    const answer = await manageRegistration(
      registration.registration_client_uri,
      'GET',
      registration.registration_access_token,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const {
      client_secret,
      client_secret_expires_at: _expires,
      registration_access_token,
      application_type: _notKept,
      ...kept
    } = registration;
    expect(answer.body).toEqual(kept);
    expect(answer.text).not.toContain(client_secret!);
    expect(answer.text).not.toContain(registration_access_token!);
  });

  it('DR-13 a wrong token, another client’s token, no token and an unknown client fail alike: 401 invalid_token', async () => {
    const [mine, theirs] = [await register(system, publicMetadata()), await register(system, publicMetadata())];
    const wrong = await manageRegistration(mine.registration_client_uri, 'GET', theirs.registration_access_token);
    const description = expectRegistrationError(wrong, 401, 'invalid_token');
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="register", error="invalid_token"');
    const unknown = await manageRegistration(
      `${registerUrl(system)}/lkc_${'x'.repeat(24)}`,
      'GET',
      mine.registration_access_token,
    );
    expect(expectRegistrationError(unknown, 401, 'invalid_token')).toBe(description);
    const malformed = await manageRegistration(mine.registration_client_uri, 'GET', 'lkm_short');
    expect(expectRegistrationError(malformed, 401, 'invalid_token')).toBe(description);
    const deleteWrong = await manageRegistration(
      mine.registration_client_uri,
      'DELETE',
      theirs.registration_access_token,
    );
    expect(expectRegistrationError(deleteWrong, 401, 'invalid_token')).toBe(description);
    const none = await manageRegistration(mine.registration_client_uri, 'GET', undefined);
    expectRegistrationError(none, 401, 'invalid_token');
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="register"');
    // A registered client (made in the portal) is no one's to manage here.
    const portal = await manageRegistration(
      `${registerUrl(system)}/${system.config.portal.clientId}`,
      'GET',
      mine.registration_access_token,
    );
    expect(expectRegistrationError(portal, 401, 'invalid_token')).toBe(description);
    expect(await clientOf(system, mine)).toBeDefined();
  });

  it('DR-12 DELETE: 204; then its tokens stop working, its refresh and sign-in are refused, and a read is 401', async () => {
    const registration = await register(system, publicMetadata());
    const tokens = await signInWith(system, registration);
    expect(await accessTokenWorks(system, tokens.access_token)).toBe(true);

    const deleted = await manageRegistration(
      registration.registration_client_uri,
      'DELETE',
      registration.registration_access_token,
    );
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');

    expect(await accessTokenWorks(system, tokens.access_token)).toBe(false);
    expect(await profileAtApi(system, tokens.access_token)).toBeUndefined();
    await expectOAuthError(
      await postForm(tokenUrl(system), {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: registration.client_id,
      }),
      401,
      'invalid_client',
    );
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: registration.client_id,
      redirectUri: PUBLIC_REDIRECT,
      codeChallenge: pkcePair().challenge,
    });
    expect(page.step).toBe('error');
    expect(page.location).toBeUndefined();
    const tables = ['grants', 'access_tokens', 'refresh_tokens', 'consents', 'authorization_codes'] as const;
    for (const table of tables) {
      const rows = await system.db
        .selectFrom(table)
        .select('client_id')
        .where('client_id', '=', registration.client_id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    const again = await manageRegistration(
      registration.registration_client_uri,
      'GET',
      registration.registration_access_token,
    );
    expectRegistrationError(again, 401, 'invalid_token');
    const twice = await manageRegistration(
      registration.registration_client_uri,
      'DELETE',
      registration.registration_access_token,
    );
    expectRegistrationError(twice, 401, 'invalid_token');
  });

  it('DR-12 PUT (RFC 7592 §2.2 update) is not offered: 405 with Allow: GET, DELETE, and nothing changes', async () => {
    const registration = await register(system, publicMetadata());
    const answer = await manageRegistration(
      registration.registration_client_uri,
      'PUT',
      registration.registration_access_token,
      {
        'content-type': 'application/json',
      },
    );
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, DELETE');
    expect((await clientOf(system, registration)).name).toBe('Agent CLI');
  });
});

describe('DR-17 secrets and tokens are stored only as digests', () => {
  it('DR-17 neither the client secret nor the registration access token is in the database; their digests are', async () => {
    const registration = await register(system, confidentialMetadata());
    const text = await system.databaseText();
    expect(text).not.toContain(registration.client_secret!);
    expect(text).not.toContain(registration.registration_access_token!);
    expect(text).toContain(digest(registration.registration_access_token!));
    expect(text).toContain(digest(registration.client_secret!));
  });
});
