import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findActiveClient, ID_TOKEN_TTL_MS, revokeClient } from '@latchkey/core';
import { CookieJar, fetchPage, findForm, openAuthorize, type PageResult } from '#test/support/browserless-flow.ts';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { expectErrorPage } from '../../authorization/authorize.fixture.ts';
import { useTokenEndpoint } from '../oauth-json/oauth-endpoint.fixture.ts';
import { obtainIdToken } from '../token/id-token.fixture.ts';

// OI-18 (issue 30, docs/sign-out.md): the end-session endpoint reads id_token_hint (OpenID
// RP-Initiated Logout 1.0 §2, §3). The hints are real ID tokens from the code flow with openid.
const { system, owner, user, other } = useTokenEndpoint({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
const RP_SIGNED_OUT = 'https://rp.example/signed-out';
const SECOND_SIGNED_OUT = 'https://second.example/bye';
const COOKIE = 'lk_auth_sid';
const { rp, second } = perFile(async () => ({
  // Third-party clients (not the portal), each with its registered post-logout URL.
  rp: await makeClient(system, owner, {
    name: 'Weather Widget',
    redirectUri: 'https://rp.example/cb',
    postLogoutRedirectUri: RP_SIGNED_OUT,
  }),
  second: await makeClient(system, owner, {
    name: 'Second App',
    redirectUri: 'https://second.example/cb',
    postLogoutRedirectUri: SECOND_SIGNED_OUT,
  }),
}));

function logoutUrl(params: Array<[string, string]>): string {
  return `/oauth/logout?${new URLSearchParams(params).toString()}`;
}

/** Whether `jar` is signed in: an app it never approved asks for consent, not for the password. */
async function isSignedIn(jar: CookieJar): Promise<boolean> {
  const page = await openAuthorize(system, jar, {
    clientId: other.client.id,
    redirectUri: other.client.redirectUris[0]!,
    state: 's',
  });
  expect(['consent', 'signin']).toContain(page.step);
  return page.step === 'consent';
}

/** The user signed in at a browser, and an ID token of theirs for the RP. */
async function signedInWithHint(): Promise<{ jar: CookieJar; idToken: string }> {
  const { jar, idToken } = await obtainIdToken(system, user, rp);
  expect(await isSignedIn(jar)).toBe(true);
  return { jar, idToken };
}

function expectSignedOutAndBack(page: PageResult, location: string): void {
  expect(page.status).toBe(303);
  expect(page.headers.get('location')).toBe(location);
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.getSetCookie().join('\n')).toMatch(new RegExp(`^${COOKIE}=;.*Expires=Thu, 01 Jan 1970`, 'm'));
}

async function expectRefused(jar: CookieJar, params: Array<[string, string]>): Promise<void> {
  const page = await fetchPage(system, jar, logoutUrl(params));
  expectErrorPage(page, 400);
  expect(page.html).toContain('This sign-out link is not valid');
  expect(page.headers.getSetCookie()).toEqual([]);
  expect(await isSignedIn(jar)).toBe(true);
}

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;
}

function encodePart(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A JWT in the ID token's shape, signed RS256 by a key this server never published. */
function signWithForeignKey(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = `${encodePart(header)}.${encodePart(payload)}`;
  const signature = sign('sha256', Buffer.from(input), privateKey);
  return `${input}.${signature.toString('base64url')}`;
}

describe('OI-18 a valid id_token_hint of the signed-in user proves who asks', () => {
  it('OI-18 third-party client, valid hint, registered URI: 303 to it with state at once, no confirmation page, and the session is gone', async () => {
    const { jar, idToken } = await signedInWithHint();
    // The control: the same request without the hint stops at the confirmation page (HD-08).
    const base: Array<[string, string]> = [
      ['client_id', rp.client.id],
      ['post_logout_redirect_uri', RP_SIGNED_OUT],
      ['state', 'a&b'],
    ];
    const unproven = await fetchPage(system, jar, logoutUrl(base));
    expect(unproven.status).toBe(200);
    expect(unproven.html).toContain('Sign out of Latchkey?');
    expect(await isSignedIn(jar)).toBe(true);

    const page = await fetchPage(system, jar, logoutUrl([...base, ['id_token_hint', idToken]]));
    expectSignedOutAndBack(page, `${RP_SIGNED_OUT}?state=a%26b`);
    expect(await isSignedIn(jar)).toBe(false);
  });

  it('OI-18 logout_hint and ui_locales are accepted and ignored; an RP’s cross-site POST gets the GET on this server, which honours the hint', async () => {
    const { jar, idToken } = await signedInWithHint();
    const fields = {
      client_id: rp.client.id,
      id_token_hint: idToken,
      post_logout_redirect_uri: RP_SIGNED_OUT,
      logout_hint: 'someone@example.com',
      ui_locales: 'fr-CA fr',
    };
    const posted = await fetchPage(system, jar, '/oauth/logout', { form: fields });
    expect(posted.status).toBe(303);
    const get = new URL(posted.headers.get('location')!, system.authUrl);
    expect(get.pathname).toBe('/oauth/logout');
    expect(get.searchParams.get('id_token_hint')).toBe(idToken);
    expect(await isSignedIn(jar)).toBe(true);
    const page = await fetchPage(system, jar, `${get.pathname}${get.search}`);
    expectSignedOutAndBack(page, RP_SIGNED_OUT);
    expect(await isSignedIn(jar)).toBe(false);
  });

  it('OI-18 without client_id the hint’s aud names the client: signed out and back to its registered URI', async () => {
    const { jar, idToken } = await signedInWithHint();
    const page = await fetchPage(
      system,
      jar,
      logoutUrl([
        ['id_token_hint', idToken],
        ['post_logout_redirect_uri', RP_SIGNED_OUT],
        ['state', 'st'],
      ]),
    );
    expectSignedOutAndBack(page, `${RP_SIGNED_OUT}?state=st`);
    expect(await isSignedIn(jar)).toBe(false);
  });

  it('OI-18 nobody signed in and a valid hint: 303 to the registered URI at once', async () => {
    const { idToken } = await obtainIdToken(system, user, rp);
    const page = await fetchPage(
      system,
      new CookieJar(),
      logoutUrl([
        ['client_id', rp.client.id],
        ['id_token_hint', idToken],
        ['post_logout_redirect_uri', RP_SIGNED_OUT],
      ]),
    );
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(RP_SIGNED_OUT);
  });

  it('OI-18 an expired hint (past the 1 h ID token lifetime) is accepted', async () => {
    const { idToken } = await obtainIdToken(system, user, rp);
    system.clock.advance(ID_TOKEN_TTL_MS + 60_000);
    expect(Number(decodePart(idToken.split('.')[1]!).exp) * 1000).toBeLessThan(system.clock.now());
    // A browser signed in now, after the token expired.
    const { jar } = await obtainIdToken(system, user, rp);
    expect(await isSignedIn(jar)).toBe(true);
    const page = await fetchPage(
      system,
      jar,
      logoutUrl([
        ['client_id', rp.client.id],
        ['id_token_hint', idToken],
        ['post_logout_redirect_uri', RP_SIGNED_OUT],
      ]),
    );
    expectSignedOutAndBack(page, RP_SIGNED_OUT);
    expect(await isSignedIn(jar)).toBe(false);
  });
});

describe('OI-18 a hint that proves nothing, or about someone else: nobody is signed out', () => {
  it('OI-18 a hint about another user than the one signed in: the confirmation page, still signed in; only its button signs out', async () => {
    const someoneElse = await makeUser(system, 'Mallory Other');
    const { idToken } = await obtainIdToken(system, someoneElse, rp);
    const { jar } = await signedInWithHint();
    for (const params of [
      [['client_id', rp.client.id]],
      [], // the aud names the client
    ] as Array<Array<[string, string]>>) {
      const page = await fetchPage(
        system,
        jar,
        logoutUrl([...params, ['id_token_hint', idToken], ['post_logout_redirect_uri', RP_SIGNED_OUT]]),
      );
      expect(page.status).toBe(200);
      expect(page.location).toBeUndefined();
      expect(page.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`))).toBe(false);
      expect(page.html).toContain('Sign out of Latchkey?');
      expect(page.html).toContain('Weather Widget');
      expect(page.html).not.toContain('Mallory');
      expect(await isSignedIn(jar)).toBe(true);
    }
    const page = await fetchPage(
      system,
      jar,
      logoutUrl([
        ['id_token_hint', idToken],
        ['post_logout_redirect_uri', RP_SIGNED_OUT],
      ]),
    );
    const form = findForm(page.html, '/oauth/logout')!;
    const confirmed = await fetchPage(system, jar, '/oauth/logout', { form: form.fields });
    expectSignedOutAndBack(confirmed, RP_SIGNED_OUT);
    expect(await isSignedIn(jar)).toBe(false);
  });

  it('OI-18 for the portal (first-party) too: a hint about another user gets the confirmation page, not SO-01’s silent sign-out', async () => {
    const { portal } = system.config;
    const client = (await findActiveClient(system.db, portal.clientId))!;
    expect(client.firstParty).toBe(true);
    const someoneElse = await makeUser(system, 'Peggy Portal');
    const { idToken } = await obtainIdToken(system, someoneElse, { client, clientSecret: portal.clientSecret });
    const { jar } = await signedInWithHint();
    const params: Array<[string, string]> = [
      ['client_id', portal.clientId],
      ['post_logout_redirect_uri', portal.postLogoutRedirectUri],
    ];
    const page = await fetchPage(system, jar, logoutUrl([...params, ['id_token_hint', idToken]]));
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.html).toContain('Sign out of Latchkey?');
    expect(await isSignedIn(jar)).toBe(true);
    // The control: without the hint the portal's request is SO-01, signed out at once.
    expectSignedOutAndBack(await fetchPage(system, jar, logoutUrl(params)), portal.postLogoutRedirectUri);
    expect(await isSignedIn(jar)).toBe(false);
  });

  it('OI-18 a client_id other than the hint’s aud: 400 page, still signed in', async () => {
    const { jar, idToken } = await signedInWithHint();
    await expectRefused(jar, [
      ['client_id', second.client.id],
      ['id_token_hint', idToken],
      ['post_logout_redirect_uri', SECOND_SIGNED_OUT],
    ]);
    // With no return URL either: the mismatch alone is refused.
    await expectRefused(jar, [
      ['client_id', second.client.id],
      ['id_token_hint', idToken],
    ]);
  });

  it('OI-18 the hint’s client revoked since: 400 page, still signed in', async () => {
    const doomed = await makeClient(system, owner, {
      redirectUri: 'https://doomed.example/cb',
      postLogoutRedirectUri: 'https://doomed.example/bye',
    });
    const { idToken } = await obtainIdToken(system, user, doomed);
    const params: Array<[string, string]> = [
      ['id_token_hint', idToken],
      ['post_logout_redirect_uri', 'https://doomed.example/bye'],
    ];
    // The control: while the client is active, its hint names it.
    const before = await fetchPage(system, new CookieJar(), logoutUrl(params));
    expect(before.status).toBe(303);
    expect(before.headers.get('location')).toBe('https://doomed.example/bye');
    await revokeClient(system.db, system.clock, doomed.client.id);
    const { jar } = await signedInWithHint();
    await expectRefused(jar, params);
  });

  it('OI-18 not a Latchkey ID token (tampered signature or payload, unknown kid, a key never published, another issuer, malformed): 400 page, still signed in', async () => {
    const { jar, idToken } = await signedInWithHint();
    const [header64, payload64, signature64] = idToken.split('.') as [string, string, string];
    const header = decodePart(header64);
    const payload = decodePart(payload64);
    const flipped = `${signature64.slice(0, -2)}${signature64.endsWith('AA') ? 'BA' : 'AA'}`;
    const hints: Array<[string, string]> = [
      ['a tampered signature', `${header64}.${payload64}.${flipped}`],
      ['a tampered payload', `${header64}.${encodePart({ ...payload, sub: 'usr_someone_else' })}.${signature64}`],
      ['an unknown kid', `${encodePart({ ...header, kid: 'not-a-published-kid' })}.${payload64}.${signature64}`],
      ['alg none', `${encodePart({ alg: 'none', typ: 'JWT' })}.${payload64}.`],
      ['a key never published, under a published kid', signWithForeignKey(header, payload)],
      [
        'another issuer’s token (its own key and kid)',
        signWithForeignKey({ ...header, kid: 'theirs' }, { ...payload, iss: 'https://evil.example' }),
      ],
      ['malformed', 'not-a-jwt'],
      ['three dots of nothing', '..'],
    ];
    for (const [name, hint] of hints) {
      await expectRefused(jar, [
        ['client_id', rp.client.id],
        ['id_token_hint', hint],
        ['post_logout_redirect_uri', RP_SIGNED_OUT],
      ]).catch((error: unknown) => {
        throw new Error(`${name}: ${String(error)}`, { cause: error });
      });
    }
    // The untouched token still works: it was the tampering that was refused.
    const page = await fetchPage(
      system,
      jar,
      logoutUrl([
        ['client_id', rp.client.id],
        ['id_token_hint', idToken],
        ['post_logout_redirect_uri', RP_SIGNED_OUT],
      ]),
    );
    expectSignedOutAndBack(page, RP_SIGNED_OUT);
  });

  it('OI-18 id_token_hint sent twice: 400 page like any duplicate, still signed in', async () => {
    const { jar, idToken } = await signedInWithHint();
    await expectRefused(jar, [
      ['client_id', rp.client.id],
      ['id_token_hint', idToken],
      ['id_token_hint', idToken],
      ['post_logout_redirect_uri', RP_SIGNED_OUT],
    ]);
  });
});
