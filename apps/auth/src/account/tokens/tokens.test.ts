// The API tokens page's endpoints: list (with last use), create (value once) and revoke.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateAccessToken,
  authenticateClient,
  InvalidGrant,
  InvalidToken,
  LastUsedRecorder,
  refreshTokens,
  type Client,
} from '@latchkey/core';
import { makeClient, makeUser, useUsers } from '#test/support/fixtures.ts';
import { startSystem, useSystem } from '#test/support/system.ts';
import { postGraphql } from '../../../../api/src/testing/post-graphql.ts';
import {
  callAccount,
  issuePortalToken,
  issueThirdPartyTokens,
  lifetimesOf,
  type AccountCall,
} from '../account.fixture.ts';

const DAY = 24 * 60 * 60 * 1000;

const system = useSystem();
const { alice, bob, appOwner } = useUsers(system, { alice: 'Alice', bob: 'Bob', appOwner: 'App Owner' });
let aliceToken: string;
let bobToken: string;
let app: Client;
let appSecret: string;

function createToken(token: string, json: unknown): Promise<AccountCall> {
  return callAccount(system, 'POST', '/account/tokens', { token, json });
}

async function tokenRows(): Promise<number> {
  return (await system.db.selectFrom('access_tokens').select('id').execute()).length;
}

beforeAll(async () => {
  aliceToken = await issuePortalToken(system, alice);
  bobToken = await issuePortalToken(system, bob);
  ({ client: app, clientSecret: appSecret } = await makeClient(system, appOwner, { name: 'Shared App' }));
});

describe('POST /account/tokens', () => {
  it('creates a PAT valid for one year by default: 201 {token, value}, no-store', async () => {
    const now = system.clock.now();
    const res = await createToken(aliceToken, { name: 'CI deploy', colour: 'ignored' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['token', 'value']);
    const { token, value } = res.body;
    expect(value).toMatch(/^lkp_[0-9A-Za-z]{36}$/);
    expect(token).toEqual({
      id: expect.stringMatching(/^tok_/),
      name: 'CI deploy',
      description: null,
      kind: 'pat',
      last4: value.slice(-4),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + system.config.tokenTtlSeconds * 1000).toISOString(),
      last_used_at: null,
      last_used_ip: null,
      last_used_user_agent: null,
      status: 'active',
      scopes: ['profile', 'email'],
      replaced_by: null,
    });
    expect(system.config.tokenTtlSeconds).toBe(365 * 24 * 60 * 60);
    const principal = await authenticateAccessToken(system.db, system.clock, value);
    expect(principal).toMatchObject({ tokenId: token.id, userId: alice.id, kind: 'pat', firstParty: false });
    const row = await system.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(value);
  });

  it('takes expires_in_days, an ISO date or an ISO date-time with a zone', async () => {
    const now = system.clock.now();
    const week = await createToken(aliceToken, { name: 'week', expires_in_days: 7 });
    expect(week.status).toBe(201);
    expect(week.body.token.expires_at).toBe(new Date(now + 7 * DAY).toISOString());

    const year = new Date(now).getUTCFullYear() + 1;
    const date = await createToken(aliceToken, { name: 'date', expires_at: `${year}-03-01` });
    expect(date.status).toBe(201);
    expect(date.body.token.expires_at).toBe(`${year}-03-01T00:00:00.000Z`);

    const offset = await createToken(aliceToken, { name: 'offset', expires_at: `${year}-03-01T12:30:00+02:00` });
    expect(offset.status).toBe(201);
    expect(offset.body.token.expires_at).toBe(`${year}-03-01T10:30:00.000Z`);

    const nulls = await createToken(aliceToken, { name: 'nulls', expires_at: null, expires_in_days: null });
    expect(nulls.status).toBe(201);
    expect(nulls.body.token.expires_at).toBe(new Date(now + system.config.tokenTtlSeconds * 1000).toISOString());
  });

  it('bad names and expirations are 400 validation_failed naming the field, and store nothing', async () => {
    const year = new Date(system.clock.now()).getUTCFullYear() + 1;
    const cases: Array<[unknown, string]> = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 7 }, 'name'],
      [{ name: 'past', expires_at: '2001-01-01' }, 'expires_at'],
      [{ name: 'now', expires_at: new Date(system.clock.now()).toISOString() }, 'expires_at'],
      [{ name: 'words', expires_at: 'next week' }, 'expires_at'],
      [{ name: 'impossible', expires_at: `${year}-02-30` }, 'expires_at'],
      [{ name: 'impossible time', expires_at: `${year}-02-01T25:00:00Z` }, 'expires_at'],
      [{ name: 'no zone', expires_at: `${year}-02-01T12:00:00` }, 'expires_at'],
      [{ name: 'number', expires_at: 1893456000000 }, 'expires_at'],
      [{ name: 'too far', expires_at: `${year + 10}-01-01` }, 'expires_at'],
      [{ name: 'both', expires_at: `${year}-01-01`, expires_in_days: 7 }, 'expires_at'],
      [{ name: 'zero', expires_in_days: 0 }, 'expires_in_days'],
      [{ name: 'negative', expires_in_days: -1 }, 'expires_in_days'],
      [{ name: 'fraction', expires_in_days: 1.5 }, 'expires_in_days'],
      [{ name: 'string', expires_in_days: '7' }, 'expires_in_days'],
      [{ name: 'huge', expires_in_days: 100_000 }, 'expires_in_days'],
    ];
    const before = await tokenRows();
    for (const [json, field] of cases) {
      const res = await createToken(aliceToken, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body, JSON.stringify(json)).toMatchObject({ error: 'validation_failed', field });
      expect(res.body.error_description).toEqual(expect.any(String));
      expect(res.body).not.toHaveProperty('value');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(await tokenRows()).toBe(before);
  });
});

describe('SC-07 a personal access token chooses its scopes', () => {
  it('SC-07 scopes ["profile"] gives a token that holds only profile: answered, listed and stored so; the API answers its name', async () => {
    const res = await createToken(aliceToken, { name: 'names only', scopes: ['profile'] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.token.scopes).toEqual(['profile']);
    const list = await callAccount(system, 'GET', '/account/tokens', { token: aliceToken });
    expect(list.body.find((t: { id: string }) => t.id === res.body.token.id).scopes).toEqual(['profile']);
    await expect(authenticateAccessToken(system.db, system.clock, res.body.value)).resolves.toMatchObject({
      scopes: ['profile'],
    });
    const answer = await postGraphql(system.apiUrl, { token: res.body.value, query: '{ profile { name } }' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ data: { profile: { name: 'Alice' } } });
  });

  it('SC-07 without scopes a token gets every third-party scope; repeats and order do not matter', async () => {
    const unset = await createToken(aliceToken, { name: 'default scopes' });
    expect(unset.body.token.scopes).toEqual(['profile', 'email']);
    const mixed = await createToken(aliceToken, { name: 'mixed', scopes: ['email', 'profile', 'email'] });
    expect(mixed.status, mixed.text).toBe(201);
    expect(mixed.body.token.scopes).toEqual(['profile', 'email']);
  });

  it('SC-07 unknown, reserved, none, `account` or malformed scopes are 400 validation_failed naming scopes, and store nothing', async () => {
    const cases: unknown[] = [
      ['admin'],
      ['profile', 'openid'],
      [],
      ['account'],
      ['profile', 'account'],
      'profile',
      [7],
      null,
    ];
    const before = await tokenRows();
    for (const scopes of cases) {
      const res = await createToken(aliceToken, { name: 'refused', scopes });
      expect(res.status, JSON.stringify(scopes)).toBe(400);
      expect(res.body, JSON.stringify(scopes)).toMatchObject({ error: 'validation_failed', field: 'scopes' });
      expect(res.body.error_description).toEqual(expect.any(String));
      expect(res.body).not.toHaveProperty('value');
    }
    expect((await createToken(aliceToken, { name: 'x', scopes: ['admin'] })).body.error_description).toContain('admin');
    expect(await tokenRows()).toBe(before);
  });
});

describe('GET /account/tokens', () => {
  it('lists PATs and authorized applications’ tokens, newest first; never values (TS-04) nor the portal’s own token', async () => {
    const user = await makeUser(system, 'Lister');
    const portal = await issuePortalToken(system, user);
    const pat = await createToken(portal, { name: 'laptop' });
    system.clock.advance(1000);
    const oauth = await issueThirdPartyTokens(system, app, user);
    const res = await callAccount(system, 'GET', '/account/tokens', { token: portal });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual([
      {
        id: expect.stringMatching(/^tok_/),
        name: 'Shared App',
        description: null,
        kind: 'oauth',
        last4: oauth.accessToken.slice(-4),
        created_at: new Date(system.clock.now()).toISOString(),
        expires_at: new Date(system.clock.now() + system.config.tokenTtlSeconds * 1000).toISOString(),
        last_used_at: null,
        last_used_ip: null,
        last_used_user_agent: null,
        status: 'active',
        scopes: ['profile', 'email'],
        replaced_by: null,
      },
      pat.body.token,
    ]);
    for (const secret of [pat.body.value, oauth.accessToken, oauth.refreshToken, portal]) {
      expect(res.text).not.toContain(secret);
    }
    expect(res.text).not.toMatch(/lk[pors]_/);
  });

  it('shows when a token was last used once the API’s recorder flushes', async () => {
    const created = await createToken(aliceToken, { name: 'used' });
    const principal = await authenticateAccessToken(system.db, system.clock, created.body.value);
    const recorder = new LastUsedRecorder(system.db, 60_000);
    const usedAt = system.clock.now() + 1234;
    recorder.record(principal.tokenId, usedAt);
    await recorder.close();
    const res = await callAccount(system, 'GET', '/account/tokens', { token: aliceToken });
    const listed = res.body.find((t: { id: string }) => t.id === created.body.token.id);
    expect(listed.last_used_at).toBe(new Date(usedAt).toISOString());
  });

  it('user isolation: Bob sees none of Alice’s tokens and cannot revoke them (404)', async () => {
    const created = await createToken(aliceToken, { name: 'alice only' });
    const bobs = await callAccount(system, 'GET', '/account/tokens', { token: bobToken });
    expect(bobs.status).toBe(200);
    expect(bobs.body.map((t: { id: string }) => t.id)).not.toContain(created.body.token.id);
    const revoke = await callAccount(system, 'POST', `/account/tokens/${created.body.token.id}/revoke`, {
      token: bobToken,
    });
    expect(revoke.status).toBe(404);
    expect(revoke.body.error).toBe('not_found');
    expect(revoke.headers.get('cache-control')).toBe('no-store');
    await expect(authenticateAccessToken(system.db, system.clock, created.body.value)).resolves.toMatchObject({
      userId: alice.id,
    });
    const unknown = await callAccount(system, 'POST', '/account/tokens/tok_unknown/revoke', { token: bobToken });
    expect(unknown.status).toBe(404);
  });
});

describe('POST /account/tokens/:id/revoke', () => {
  it('RV-01 a PAT revoked through the endpoint is refused on the very next check', async () => {
    const created = await createToken(aliceToken, { name: 'to revoke' });
    await expect(authenticateAccessToken(system.db, system.clock, created.body.value)).resolves.toBeDefined();
    system.clock.advance(1000);
    const res = await callAccount(system, 'POST', `/account/tokens/${created.body.token.id}/revoke`, {
      token: aliceToken,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ ...created.body.token, status: 'revoked' });
    expect(res.text).not.toContain(created.body.value);
    await expect(authenticateAccessToken(system.db, system.clock, created.body.value)).rejects.toBeInstanceOf(
      InvalidToken,
    );
    const list = await callAccount(system, 'GET', '/account/tokens', { token: aliceToken });
    expect(list.body.find((t: { id: string }) => t.id === created.body.token.id)).toMatchObject({ status: 'revoked' });
  });

  it('RV-02 an application’s access token is listed, revoked through the endpoint, and its refresh token then fails invalid_grant', async () => {
    const pair = await issueThirdPartyTokens(system, app, alice);
    const { tokenId } = await authenticateAccessToken(system.db, system.clock, pair.accessToken);
    const before = await callAccount(system, 'GET', '/account/tokens', { token: aliceToken });
    expect(before.body.find((t: { id: string }) => t.id === tokenId)).toMatchObject({
      kind: 'oauth',
      name: 'Shared App',
      status: 'active',
    });

    const res = await callAccount(system, 'POST', `/account/tokens/${tokenId}/revoke`, { token: aliceToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tokenId, kind: 'oauth', status: 'revoked' });
    await expect(authenticateAccessToken(system.db, system.clock, pair.accessToken)).rejects.toBeInstanceOf(
      InvalidToken,
    );
    const client = await authenticateClient(system.db, app.id, appSecret);
    await expect(
      refreshTokens(system.db, system.clock, lifetimesOf(system), client, pair.refreshToken),
    ).rejects.toBeInstanceOf(InvalidGrant);
    const after = await callAccount(system, 'GET', '/account/tokens', { token: aliceToken });
    expect(after.body.filter((t: { id: string; status: string }) => t.id === tokenId && t.status === 'active')).toEqual(
      [],
    );
  });

  it('RV-06 revoking your own token leaves another user’s token of the same client, and your other tokens, working', async () => {
    const alicePair = await issueThirdPartyTokens(system, app, alice);
    const bobPair = await issueThirdPartyTokens(system, app, bob);
    const alicePat = await createToken(aliceToken, { name: 'keeps working' });
    const { tokenId } = await authenticateAccessToken(system.db, system.clock, alicePair.accessToken);
    const res = await callAccount(system, 'POST', `/account/tokens/${tokenId}/revoke`, { token: aliceToken });
    expect(res.status).toBe(200);
    await expect(authenticateAccessToken(system.db, system.clock, alicePair.accessToken)).rejects.toBeInstanceOf(
      InvalidToken,
    );
    await expect(authenticateAccessToken(system.db, system.clock, bobPair.accessToken)).resolves.toMatchObject({
      userId: bob.id,
    });
    await expect(authenticateAccessToken(system.db, system.clock, alicePat.body.value)).resolves.toMatchObject({
      userId: alice.id,
    });
    const client = await authenticateClient(system.db, app.id, appSecret);
    await expect(
      refreshTokens(system.db, system.clock, lifetimesOf(system), client, bobPair.refreshToken),
    ).resolves.toHaveProperty('accessToken');
  });

  it('RV-07 revoking twice is a 200 no-op: same body, first revocation kept', async () => {
    const created = await createToken(aliceToken, { name: 'twice' });
    const first = await callAccount(system, 'POST', `/account/tokens/${created.body.token.id}/revoke`, {
      token: aliceToken,
    });
    system.clock.advance(5000);
    const second = await callAccount(system, 'POST', `/account/tokens/${created.body.token.id}/revoke`, {
      token: aliceToken,
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.body.status).toBe('revoked');
  });
});

describe('RV-05 expiry on the fake clock', () => {
  it('a default PAT works one second before a year, is refused and listed expired one second after; revoking it then is a 200 no-op (RV-07)', async () => {
    const local = await startSystem();
    try {
      const user = await makeUser(local);
      const portal = await issuePortalToken(local, user);
      const created = await callAccount(local, 'POST', '/account/tokens', { token: portal, json: { name: 'yearly' } });
      expect(created.status).toBe(201);
      const value: string = created.body.value;
      const year = local.config.tokenTtlSeconds * 1000;

      local.clock.advance(year - 1000);
      await expect(authenticateAccessToken(local.db, local.clock, value)).resolves.toMatchObject({ userId: user.id });
      const before = await callAccount(local, 'GET', '/account/tokens', { token: portal });
      expect(before.body[0]).toMatchObject({ id: created.body.token.id, status: 'active' });

      local.clock.advance(2000);
      await expect(authenticateAccessToken(local.db, local.clock, value)).rejects.toBeInstanceOf(InvalidToken);
      // The portal's own access token has the same one-year lifetime and is refused too.
      const stale = await callAccount(local, 'GET', '/account/tokens', { token: portal });
      expect(stale.status).toBe(401);
      expect(stale.body.error).toBe('invalid_token');
      expect(stale.headers.get('www-authenticate')).toBe('Bearer realm="account", error="invalid_token"');

      const fresh = await issuePortalToken(local, user);
      const after = await callAccount(local, 'GET', '/account/tokens', { token: fresh });
      expect(after.body).toEqual([{ ...created.body.token, status: 'expired' }]);

      const revoke = await callAccount(local, 'POST', `/account/tokens/${created.body.token.id}/revoke`, {
        token: fresh,
      });
      expect(revoke.status).toBe(200);
      expect(revoke.body.id).toBe(created.body.token.id);
      await expect(authenticateAccessToken(local.db, local.clock, value)).rejects.toBeInstanceOf(InvalidToken);
    } finally {
      await local.close();
    }
  });

  it('a 7-day PAT is refused at 7 days + 1 s', async () => {
    const local = await startSystem();
    try {
      const user = await makeUser(local);
      const portal = await issuePortalToken(local, user);
      const created = await callAccount(local, 'POST', '/account/tokens', {
        token: portal,
        json: { name: 'week', expires_in_days: 7 },
      });
      local.clock.advance(7 * DAY - 1000);
      await expect(authenticateAccessToken(local.db, local.clock, created.body.value)).resolves.toBeDefined();
      local.clock.advance(2000);
      await expect(authenticateAccessToken(local.db, local.clock, created.body.value)).rejects.toBeInstanceOf(
        InvalidToken,
      );
      const list = await callAccount(local, 'GET', '/account/tokens', { token: portal });
      expect(list.body[0]).toMatchObject({ id: created.body.token.id, status: 'expired' });
    } finally {
      await local.close();
    }
  });
});
