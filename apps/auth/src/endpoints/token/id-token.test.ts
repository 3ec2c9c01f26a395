import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalAccessToken } from '@latchkey/core';
import { authorizeViaPages, driveToDecision, type CookieJar } from '#test/support/browserless-flow.ts';
import { anOutage } from '#test/support/faults.ts';
import { makeClient, makeUser, type TestUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { expectErrorRedirect } from '../../authorization/authorize.fixture.ts';
import {
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  refreshWith,
  useTokenEndpoint,
  type ClientCredentialsFixture,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import { expectIdTokenResponse, publishedKeys, signInForCode, verifyIdToken } from './id-token.fixture.ts';

// OpenID Connect's ID token from the code flow (issue 30): claims, signature against the
// published JWKS, nonce binding, at_hash and refresh, driven through the real pages and endpoint.
const { system, user, app } = useTokenEndpoint();

/** OI-05, computed here on its own: base64url of the left half of SHA-256 of the access token. */
function leftHalfHash(accessToken: string): string {
  const hash = createHash('sha256').update(accessToken).digest();
  return hash.subarray(0, 16).toString('base64url');
}

/** The whole browser flow for `creds`'s client as `options.as` (the file's user by default). */
function signIn(
  creds: ClientCredentialsFixture,
  params: Record<string, string>,
  options: { jar?: CookieJar; as?: TestUser } = {},
): Promise<{ code: string; jar: CookieJar }> {
  return signInForCode(system, options.as ?? user, creds, params, options);
}

const seconds = (ms: number) => Math.floor(ms / 1000);

describe('OI-01 scope openid', () => {
  it('OI-01 without openid nothing changes: the documented response, no id_token, the same scope', async () => {
    const { code } = await signIn(app, {});
    const body = await expectTokenResponse(await exchangeCode(system, app, code));
    expect(body.scope).toBe('profile email');
    expect(body).not.toHaveProperty('id_token');
    const narrow = await expectTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'email' })).code),
    );
    expect(narrow.scope).toBe('email');
  });

  it('OI-01 with openid the code exchange also answers an id_token, and scope names openid', async () => {
    const { code } = await signIn(app, { scope: 'openid profile email' });
    const body = await expectIdTokenResponse(await exchangeCode(system, app, code));
    expect(body.scope).toBe('openid profile email');
    await verifyIdToken(system, body.id_token);
    // A bare `openid` is the client's default and openid (SC-03).
    const bare = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid' })).code),
    );
    expect(bare.scope).toBe('openid profile email');
  });

  it('OI-01 openid is no client default and no personal access token may hold it', async () => {
    expect(app.client.scopes).not.toContain('openid');
    for (const scopes of [['openid'], ['profile', 'openid']] as const) {
      await expect(
        createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
          userId: user.id,
          name: 'openid',
          scopes: [...scopes],
        }),
      ).rejects.toMatchObject({ code: 'validation_failed', field: 'scopes' });
    }
  });
});

describe('OI-02 the claims', () => {
  it('OI-02 iss, sub (the id, never the email), aud, exp = iat + 1 h, iat, auth_time (the sign-in, seconds), nonce, at_hash, name, email and email_verified false', async () => {
    const signedInAt = system.clock.now();
    const { code } = await signIn(app, { scope: 'openid profile email', nonce: 'n-0S6_WzA2Mj' });
    system.clock.advance(90_000); // the exchange comes later than the sign-in: auth_time is not iat
    const body = await expectIdTokenResponse(await exchangeCode(system, app, code));
    const { header, payload } = await verifyIdToken(system, body.id_token);
    expect(header.typ).toBe('JWT');
    const iat = seconds(system.clock.now());
    expect(payload).toEqual({
      iss: system.config.auth.url,
      sub: user.id,
      aud: app.client.id,
      exp: iat + 3600,
      iat,
      auth_time: seconds(signedInAt),
      nonce: 'n-0S6_WzA2Mj',
      at_hash: leftHalfHash(body.access_token),
      name: user.name,
      email: user.email,
      email_verified: false,
    });
    expect(payload.sub).not.toContain('@');
  });

  it('OI-02 claims by scope: no email claims without email, no name without profile', async () => {
    const profile = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid profile' })).code),
    );
    const { payload } = await verifyIdToken(system, profile.id_token);
    expect(payload.name).toBe(user.name);
    expect(payload).not.toHaveProperty('email');
    expect(payload).not.toHaveProperty('email_verified');

    const email = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid email' })).code),
    );
    const claims = (await verifyIdToken(system, email.id_token)).payload;
    expect(claims).toMatchObject({ email: user.email, email_verified: false });
    expect(claims).not.toHaveProperty('name');
    expect(claims).not.toHaveProperty('nonce');
  });
});

describe('OI-03 signature', () => {
  it('OI-03 RS256 by default, with the kid of an RS256 key of /.well-known/jwks.json', async () => {
    const body = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid' })).code),
    );
    const { header } = await verifyIdToken(system, body.id_token);
    expect(header.alg).toBe('RS256');
    const key = (await publishedKeys(system)).find((k) => k.kid === header.kid)!;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });

  it('OI-03 ES256 for a client registered with id_token_signed_response_alg ES256', async () => {
    const owner = await makeUser(system, 'ES Owner');
    const es = await makeClient(system, owner, { redirectUri: 'https://es.example/cb' });
    await system.db
      .updateTable('clients')
      .set({ id_token_signed_response_alg: 'ES256' })
      .where('id', '=', es.client.id)
      .execute();
    const creds = es;
    const body = await expectIdTokenResponse(
      await exchangeCode(system, creds, (await signIn(creds, { scope: 'openid profile' })).code),
    );
    const { header, payload } = await verifyIdToken(system, body.id_token);
    expect(header.alg).toBe('ES256');
    expect((await publishedKeys(system)).find((k) => k.kid === header.kid)).toMatchObject({
      kty: 'EC',
      alg: 'ES256',
      use: 'sig',
    });
    expect(payload.aud).toBe(es.client.id);
    expect(payload.at_hash).toBe(leftHalfHash(body.access_token));
  });

  it('OI-03 a tampered payload or signature does not verify against the JWKS', async () => {
    const body = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid' })).code),
    );
    const [header64, payload64, signature64] = body.id_token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(payload64, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: 'usr_someone_else' })).toString('base64url');
    const key = (await publishedKeys(system)).find(
      (k) => k.kid === (JSON.parse(Buffer.from(header64, 'base64url').toString()) as { kid: string }).kid,
    )!;
    const publicKey = createPublicKey({ key, format: 'jwk' });
    const check = (p: string, s: string) =>
      verify('sha256', Buffer.from(`${header64}.${p}`), publicKey, Buffer.from(s, 'base64url'));
    expect(check(payload64, signature64)).toBe(true);
    expect(check(forged, signature64)).toBe(false);
    const flipped = `${signature64.slice(0, -2)}${signature64.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(check(payload64, flipped)).toBe(false);
  });
});

describe('OI-04 nonce', () => {
  it('OI-04 echoed exactly, any printable ASCII up to 512 characters, through the sign-in (a visitor) and a signed-in browser', async () => {
    const odd = ` a "quoted" nonce & <tag> ~!\\ ${'x'.repeat(100)}`;
    const first = await signIn(app, { scope: 'openid', nonce: odd });
    const long = 'N'.repeat(512);
    const second = await signIn(app, { scope: 'openid', nonce: long }, { jar: first.jar });
    const a = await verifyIdToken(
      system,
      (await expectIdTokenResponse(await exchangeCode(system, app, first.code))).id_token,
    );
    const b = await verifyIdToken(
      system,
      (await expectIdTokenResponse(await exchangeCode(system, app, second.code))).id_token,
    );
    expect(a.payload.nonce).toBe(odd);
    expect(b.payload.nonce).toBe(long);
  });

  it("OI-04 a code's id_token carries its own request's nonce, not another's of the same browser", async () => {
    const { jar, code: codeA } = await signIn(app, { scope: 'openid', nonce: 'nonce-A' });
    const { code: codeB } = await signIn(app, { scope: 'openid', nonce: 'nonce-B' }, { jar });
    const { code: codeNone } = await signIn(app, { scope: 'openid' }, { jar });
    // Redeemed out of order: each still answers its own.
    const b = await verifyIdToken(
      system,
      (await expectIdTokenResponse(await exchangeCode(system, app, codeB))).id_token,
    );
    const none = await verifyIdToken(
      system,
      (await expectIdTokenResponse(await exchangeCode(system, app, codeNone))).id_token,
    );
    const a = await verifyIdToken(
      system,
      (await expectIdTokenResponse(await exchangeCode(system, app, codeA))).id_token,
    );
    expect([a.payload.nonce, b.payload.nonce]).toEqual(['nonce-A', 'nonce-B']);
    expect(none.payload).not.toHaveProperty('nonce');
  });

  it('OI-04 a nonce over 512 characters, outside printable ASCII, or sent twice is invalid_request on the redirect', async () => {
    const { jar } = await signIn(app, { scope: 'openid' });
    const base = { clientId: app.client.id, redirectUri: app.client.redirectUris[0]!, state: 'oi' };
    const cases: Array<Array<[string, string]>> = [
      [['nonce', 'N'.repeat(513)]],
      [['nonce', 'caf\u00e9']],
      [['nonce', 'line\nbreak']],
      [
        ['nonce', 'one'],
        ['nonce', 'two'],
      ],
    ];
    for (const extra of cases) {
      const page = await driveToDecision(system, jar, { ...base, extra: [['scope', 'openid'], ...extra] });
      const response = expectErrorRedirect(system, page, base.redirectUri, 'invalid_request', 'oi');
      expect(response.errorDescription).toContain('nonce');
    }
  });
});

describe('OI-05 at_hash', () => {
  it('OI-05 at_hash is the base64url left half of SHA-256 of the access token issued with it, and of no other', async () => {
    const first = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid' })).code),
    );
    const second = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid' })).code),
    );
    const atHash = (await verifyIdToken(system, first.id_token)).payload.at_hash;
    expect(atHash).toBe(leftHalfHash(first.access_token));
    expect(atHash).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(atHash).not.toBe(leftHalfHash(second.access_token));
  });
});

describe('OI-06 refresh', () => {
  it('OI-06 a refresh of an openid grant answers a new id_token: same sub, aud and auth_time, a new iat and at_hash, no nonce', async () => {
    const signedInAt = system.clock.now();
    const { code } = await signIn(app, { scope: 'openid profile email', nonce: 'first-nonce' });
    const first = await expectIdTokenResponse(await exchangeCode(system, app, code));
    const original = (await verifyIdToken(system, first.id_token)).payload;
    system.clock.advance(10 * 60_000);
    const refreshed = await expectIdTokenResponse(await refreshWith(system, app, first.refresh_token));
    expect(refreshed.scope).toBe('openid profile email');
    const { payload } = await verifyIdToken(system, refreshed.id_token);
    const iat = seconds(system.clock.now());
    expect(payload).toEqual({
      iss: original.iss,
      sub: user.id,
      aud: app.client.id,
      exp: iat + 3600,
      iat,
      auth_time: seconds(signedInAt),
      at_hash: leftHalfHash(refreshed.access_token),
      name: user.name,
      email: user.email,
      email_verified: false,
    });
    expect(payload.iat).not.toBe(original.iat);
  });

  it('OI-06 no id_token on the refresh of a grant without openid, nor on one narrowed to leave it out', async () => {
    const plain = await expectTokenResponse(await exchangeCode(system, app, (await signIn(app, {})).code));
    const again = await expectTokenResponse(await refreshWith(system, app, plain.refresh_token));
    expect(again).not.toHaveProperty('id_token');

    const oidc = await expectIdTokenResponse(
      await exchangeCode(system, app, (await signIn(app, { scope: 'openid profile' })).code),
    );
    const narrowed = await expectTokenResponse(
      await refreshWith(system, app, oidc.refresh_token, { extra: { scope: 'profile' } }),
    );
    expect(narrowed.scope).toBe('profile');
    // The grant still holds openid: a later refresh without `scope` gets it back (SC-04).
    const whole = await expectIdTokenResponse(await refreshWith(system, app, narrowed.refresh_token));
    expect(whole.scope).toBe('openid profile');
  });
});

describe('D-10 OI-03 signing keys that cannot be read', () => {
  // Its own servers: the app reads its keys once a minute, so this must be the first use.
  let fresh: TestSystem;
  beforeAll(async () => {
    fresh = await startSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: '10000' });
  });
  afterAll(async () => {
    await fresh?.close();
  });

  it('D-10 OI-03 a database failure loading the keys is 503 temporarily_unavailable and leaves the code usable', async () => {
    const person = await makeUser(fresh);
    const creds = await makeClient(fresh, person);
    const { code } = await authorizeViaPages(fresh, {
      clientId: creds.client.id,
      redirectUri: creds.client.redirectUris[0]!,
      extra: [['scope', 'openid']],
      user: person,
    });
    fresh.faults.failQueriesOn('signing_keys', anOutage);
    try {
      const res = await exchangeCode(fresh, creds, code!);
      await expectOAuthError(res, 503, 'temporarily_unavailable');
      expect(res.headers.get('retry-after')).not.toBeNull();
    } finally {
      fresh.faults.clear();
    }
    const body = await expectIdTokenResponse(await exchangeCode(fresh, creds, code!));
    expect(body.scope).toBe('openid profile email');
  });
});
