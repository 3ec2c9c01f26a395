// Issue 35 at the account API: a token's description (TR-01), editing its name and description
// (TR-02), rolling it with an overlap on the injectable clock (TR-03) and what cannot be rolled
// (TR-04). The old value's refusal is shown at the real API (/graphql) as well as in core.
import { describe, expect, it } from 'vitest';
import { TOKEN_EXPIRES_AT_HEADER } from '@latchkey/contracts';
import { authenticateAccessToken, InvalidToken, listTokensForUser, type User } from '@latchkey/core';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { postGraphql, type GraphqlAnswer } from '../../../../api/src/testing/post-graphql.ts';
import { callAccount, issuePortalToken, issueThirdPartyTokens, type AccountCall } from '../account.fixture.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (ms: number): string => new Date(ms).toISOString();

const system = useSystem();

interface Account {
  user: User;
  /** The portal's access token of the user, as the BFF sends it. */
  portal: string;
}

/**
 * A user of its own for each test: creations and rolls share a per-user rate limit (HD-14),
 * and each test reads its own token list.
 */
async function newAccount(name: string): Promise<Account> {
  const user = await makeUser(system, name);
  return { user, portal: await issuePortalToken(system, user) };
}

function createToken(account: Account, json: unknown): Promise<AccountCall> {
  return callAccount(system, 'POST', '/account/tokens', { token: account.portal, json });
}

function patchToken(account: Account, id: string, json?: unknown): Promise<AccountCall> {
  return callAccount(system, 'PATCH', `/account/tokens/${id}`, { token: account.portal, json });
}

function rollToken(account: Account, id: string, json?: unknown): Promise<AccountCall> {
  return callAccount(system, 'POST', `/account/tokens/${id}/roll`, { token: account.portal, json });
}

async function listed(account: Account, id: string): Promise<any> {
  const list = await callAccount(system, 'GET', '/account/tokens', { token: account.portal });
  expect(list.status).toBe(200);
  return list.body.find((token: { id: string }) => token.id === id);
}

async function tokenRows(): Promise<number> {
  return (await system.db.selectFrom('access_tokens').select('id').execute()).length;
}

async function storedRow(id: string) {
  return system.db.selectFrom('access_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A token created through the endpoint, expected to succeed: its listed form and its value. */
async function created(account: Account, json: Record<string, unknown>): Promise<{ token: any; value: string }> {
  const res = await createToken(account, json);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The API answers the token: 200 at /graphql. */
async function expectApiAccepts(value: string): Promise<GraphqlAnswer> {
  const answer = await postGraphql(system.apiUrl, { token: value, query: '{ profile { id } }' });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

/** The API refuses the token: 401 invalid_token at /graphql, and core refuses it too. */
async function expectRefused(value: string): Promise<void> {
  await expect(authenticateAccessToken(system.db, system.clock, value)).rejects.toBeInstanceOf(InvalidToken);
  const answer = await postGraphql(system.apiUrl, { token: value, query: '{ profile { id } }' });
  expect(answer.status, answer.text).toBe(401);
  expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
  expect(answer.headers.get(TOKEN_EXPIRES_AT_HEADER)).toBeNull();
}

function expectBadRequest(res: AccountCall, error: string, field?: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ error, ...(field === undefined ? {} : { field }) });
  expect(res.body.error_description).toEqual(expect.any(String));
  expect(res.body).not.toHaveProperty('value');
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('TR-01 a personal access token’s description', () => {
  it('TR-01 a description given at creation is answered, listed and stored; left out or blank it is null', async () => {
    const account = await newAccount('Describer');
    const described = await created(account, { name: 'docs deploy', description: '  Pushes the docs site from CI  ' });
    expect(described.token.description).toBe('Pushes the docs site from CI');
    expect(await listed(account, described.token.id)).toEqual(described.token);
    expect((await storedRow(described.token.id)).description).toBe('Pushes the docs site from CI');

    const longest = await created(account, { name: 'longest', description: 'é'.repeat(300) });
    expect(longest.token.description).toBe('é'.repeat(300));

    for (const json of [{ name: 'none' }, { name: 'blank', description: '   ' }, { name: 'null', description: null }]) {
      const plain = await created(account, json);
      expect(plain.token.description, JSON.stringify(json)).toBeNull();
      expect((await listed(account, plain.token.id)).description).toBeNull();
      expect((await storedRow(plain.token.id)).description ?? null).toBeNull();
    }
  });

  it('TR-01 a description of 301 characters, with a line break or control character, or not a string is 400 validation_failed naming description, and stores nothing', async () => {
    const account = await newAccount('Refused Describer');
    const before = await tokenRows();
    for (const description of ['x'.repeat(301), 'first line\nsecond line', 'carriage\rreturn', 'tab\there', 7, ['a']]) {
      const res = await createToken(account, { name: 'refused', description });
      expectBadRequest(res, 'validation_failed', 'description');
    }
    expect(await tokenRows()).toBe(before);
    expect(await listTokensForUser(system.db, system.clock, account.user.id)).toEqual([]);
  });
});

describe('TR-02 PATCH /account/tokens/{id}', () => {
  it('TR-02 changes the name and the description; the value still works and its scopes and expiry stay', async () => {
    const account = await newAccount('Editor');
    const { token, value } = await created(account, {
      name: 'laptop',
      description: 'Old words',
      scopes: ['profile'],
      expires_in_days: 30,
    });
    system.clock.advance(1000);

    const both = await patchToken(account, token.id, { name: 'work laptop', description: 'Reads my profile' });
    expect(both.status, both.text).toBe(200);
    expect(both.headers.get('cache-control')).toBe('no-store');
    expect(both.body).toEqual({ ...token, name: 'work laptop', description: 'Reads my profile' });
    expect(both.text).not.toContain(value);
    expect(await listed(account, token.id)).toEqual(both.body);

    // Only the fields sent change.
    const nameOnly = await patchToken(account, token.id, { name: 'home laptop' });
    expect(nameOnly.body).toEqual({ ...both.body, name: 'home laptop' });
    const descriptionOnly = await patchToken(account, token.id, { description: 'Reads my name' });
    expect(descriptionOnly.body).toEqual({ ...nameOnly.body, description: 'Reads my name' });

    // The same value, the same token: its scopes and expiry are what they were.
    await expect(authenticateAccessToken(system.db, system.clock, value)).resolves.toMatchObject({
      tokenId: token.id,
      scopes: ['profile'],
      expiresAt: Date.parse(token.expires_at),
    });
    await expectApiAccepts(value);
    const row = await storedRow(token.id);
    expect(Number(row.expires_at)).toBe(Date.parse(token.expires_at));
    expect(row.scope).toBe('profile');
    expect(row.name).toBe('home laptop');
  });

  it('TR-02 an empty string or null clears the description', async () => {
    const account = await newAccount('Clearer');
    const { token } = await created(account, { name: 'ci', description: 'Something' });
    for (const description of ['', '   ', null]) {
      expect((await patchToken(account, token.id, { description: 'Something' })).body.description).toBe('Something');
      const cleared = await patchToken(account, token.id, { description });
      expect(cleared.status, JSON.stringify(description)).toBe(200);
      expect(cleared.body).toEqual({ ...token, description: null });
      expect((await storedRow(token.id)).description ?? null).toBeNull();
    }
  });

  it('TR-02 no body, an empty object or bad fields are 400 and change nothing', async () => {
    const account = await newAccount('Bad Editor');
    const { token, value } = await created(account, { name: 'kept', description: 'Kept too' });
    const before = await storedRow(token.id);

    const bodiless = await patchToken(account, token.id);
    expectBadRequest(bodiless, 'invalid_request');
    const cases: Array<[unknown, string]> = [
      [{}, 'body'],
      [{ colour: 'red' }, 'body'],
      [{ name: 7 }, 'name'],
      [{ name: null }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ description: 7 }, 'description'],
      [{ description: 'x'.repeat(301) }, 'description'],
      [{ description: 'two\nlines' }, 'description'],
      // A valid name with an invalid description: neither is stored.
      [{ name: 'would change', description: 'x'.repeat(301) }, 'description'],
      [{ name: '', description: 'would change' }, 'name'],
    ];
    for (const [json, field] of cases) {
      expectBadRequest(await patchToken(account, token.id, json), 'validation_failed', field);
    }
    // Bodies that are not a JSON object: 400; not JSON at all: 415.
    for (const [body, contentType, status] of [
      ['[]', 'application/json', 400],
      ['null', 'application/json', 400],
      ['"renamed"', 'application/json', 400],
      ['{"name": ', 'application/json', 400],
      ['name=renamed', 'application/x-www-form-urlencoded', 415],
    ] as const) {
      const res = await callAccount(system, 'PATCH', `/account/tokens/${token.id}`, {
        token: account.portal,
        body,
        headers: { 'content-type': contentType },
      });
      expect(res.status, body).toBe(status);
      expect(res.body.error, body).toEqual(expect.any(String));
    }
    expect(await storedRow(token.id)).toEqual(before);
    expect(await listed(account, token.id)).toEqual(token);
    await expectApiAccepts(value);
  });

  it('TR-02 an application’s (OAuth) access token is 400 invalid_request; another user’s or an unknown id is 404', async () => {
    const alice = await newAccount('Alice');
    const bob = await newAccount('Bob');
    const { client } = await makeClient(system, alice.user, { name: 'Third Party' });
    const pair = await issueThirdPartyTokens(system, client, alice.user);
    const { tokenId: oauthId } = await authenticateAccessToken(system.db, system.clock, pair.accessToken);
    const oauthBefore = await storedRow(oauthId);

    const oauth = await patchToken(alice, oauthId, { name: 'Renamed app' });
    expectBadRequest(oauth, 'invalid_request');
    expect(oauth.body.error_description).toMatch(/application/);
    expect(await storedRow(oauthId)).toEqual(oauthBefore);

    const { token } = await created(alice, { name: 'alice only', description: 'Hers' });
    const before = await storedRow(token.id);
    for (const [account, id] of [
      [bob, token.id],
      [bob, oauthId],
      [alice, 'tok_unknown'],
    ] as const) {
      const res = await patchToken(account, id, { name: 'taken', description: 'over' });
      expect(res.status, `${account.user.name} ${id}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect(await storedRow(token.id)).toEqual(before);
  });
});

describe('TR-03 rolling a personal access token', () => {
  it('TR-03 with a one-hour overlap: 201 {token, value} with the same name, description, scopes and lifetime; the old value works for 59 minutes and is refused at 60, then listed revoked and replaced', async () => {
    const account = await newAccount('Roller');
    const old = await created(account, {
      name: 'deploy',
      description: 'Pushes the docs',
      scopes: ['email'],
      expires_in_days: 30,
    });
    system.clock.advance(2 * DAY);
    const rolledAt = system.clock.now();
    const rows = await tokenRows();

    const res = await rollToken(account, old.token.id, { overlap: '1h' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['token', 'value']);
    const { token, value } = res.body;
    expect(value).toMatch(/^lkp_[0-9A-Za-z]{36}$/);
    expect(value).not.toBe(old.value);
    expect(token).toEqual({
      id: expect.stringMatching(/^tok_/),
      name: 'deploy',
      description: 'Pushes the docs',
      kind: 'pat',
      last4: value.slice(-4),
      created_at: iso(rolledAt),
      // The old token's lifetime (30 days), from now.
      expires_at: iso(rolledAt + 30 * DAY),
      last_used_at: null,
      last_used_ip: null,
      last_used_user_agent: null,
      status: 'active',
      scopes: ['email'],
      replaced_by: null,
    });
    expect(token.id).not.toBe(old.token.id);
    expect(await tokenRows()).toBe(rows + 1);
    await expect(authenticateAccessToken(system.db, system.clock, value)).resolves.toMatchObject({
      tokenId: token.id,
      userId: account.user.id,
      kind: 'pat',
      scopes: ['email'],
    });

    // During the overlap the old token is active until its end, and names its successor.
    const overlapEnd = rolledAt + HOUR;
    const list = await callAccount(system, 'GET', '/account/tokens', { token: account.portal });
    expect(list.body).toEqual([
      token,
      { ...old.token, expires_at: iso(overlapEnd), status: 'active', replaced_by: token.id },
    ]);
    // TS-04: the new value was in the roll's answer only.
    expect(list.text).not.toContain(value);

    system.clock.advance(59 * MINUTE);
    await expect(authenticateAccessToken(system.db, system.clock, old.value)).resolves.toMatchObject({
      tokenId: old.token.id,
    });
    const during = await postGraphql(system.apiUrl, { token: old.value, query: '{ profile { email } }' });
    expect(during.status, during.text).toBe(200);
    expect(during.headers.get(TOKEN_EXPIRES_AT_HEADER)).toBe(iso(overlapEnd));

    system.clock.advance(1 * MINUTE);
    await expectRefused(old.value);
    const after = await postGraphql(system.apiUrl, { token: value, query: '{ profile { email } }' });
    expect(after.status, after.text).toBe(200);

    expect(await listed(account, old.token.id)).toEqual({
      ...old.token,
      expires_at: iso(overlapEnd),
      status: 'revoked',
      replaced_by: token.id,
    });
    const summaries = await listTokensForUser(system.db, system.clock, account.user.id);
    expect(summaries.find((summary) => summary.id === old.token.id)).toMatchObject({
      status: 'revoked',
      revokedAt: overlapEnd,
      replacedBy: token.id,
    });
    const row = await storedRow(old.token.id);
    expect(Number(row.rolled_at)).toBe(rolledAt);
    expect(row.replaced_by).toBe(token.id);
  });

  it("TR-03 overlap 'none', and a roll without a body (none by default), refuse the old value at once", async () => {
    const account = await newAccount('Quick Roller');
    for (const body of [{ overlap: 'none' }, undefined, {}]) {
      const old = await created(account, { name: 'short-lived', scopes: ['profile'] });
      await expectApiAccepts(old.value);
      const rolledAt = system.clock.now();
      const res = await rollToken(account, old.token.id, body);
      expect(res.status, `${JSON.stringify(body)} ${res.text}`).toBe(201);
      await expectRefused(old.value);
      await expectApiAccepts(res.body.value);
      expect(await listed(account, old.token.id)).toEqual({
        ...old.token,
        status: 'revoked',
        replaced_by: res.body.token.id,
      });
      const summaries = await listTokensForUser(system.db, system.clock, account.user.id);
      expect(summaries.find((summary) => summary.id === old.token.id)?.revokedAt).toBe(rolledAt);
    }
  });

  it('TR-03 an overlap longer than the old token has left is cut to its own expiry; the new one gets its full lifetime', async () => {
    const account = await newAccount('Late Roller');
    const old = await created(account, { name: 'daily', expires_in_days: 1 });
    const oldExpiry = Date.parse(old.token.expires_at);
    system.clock.advance(20 * HOUR);
    const rolledAt = system.clock.now();

    const res = await rollToken(account, old.token.id, { overlap: '7d' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.token.expires_at).toBe(iso(rolledAt + DAY));
    expect(await listed(account, old.token.id)).toMatchObject({
      expires_at: iso(oldExpiry),
      status: 'active',
      replaced_by: res.body.token.id,
    });

    system.clock.advance(oldExpiry - rolledAt - 1000);
    await expectApiAccepts(old.value);
    system.clock.advance(1000);
    await expectRefused(old.value);
    await expectApiAccepts(res.body.value);
    expect(await listed(account, old.token.id)).toMatchObject({ status: 'revoked', replaced_by: res.body.token.id });
  });

  it('TR-03 a bad overlap is 400 validation_failed naming overlap; the token is not rolled', async () => {
    const account = await newAccount('Bad Roller');
    const old = await created(account, { name: 'stays' });
    const before = await storedRow(old.token.id);
    const rows = await tokenRows();
    for (const overlap of ['2h', '1H', '', 3600, null, ['1h']]) {
      expectBadRequest(await rollToken(account, old.token.id, { overlap }), 'validation_failed', 'overlap');
    }
    for (const body of ['[]', '"1h"', '{"overlap": ']) {
      const res = await callAccount(system, 'POST', `/account/tokens/${old.token.id}/roll`, {
        token: account.portal,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, body).toBe(400);
      expect(res.body).not.toHaveProperty('value');
    }
    expect(await tokenRows()).toBe(rows);
    expect(await storedRow(old.token.id)).toEqual(before);
    await expectApiAccepts(old.value);
  });
});

describe('TR-04 what cannot be rolled', () => {
  it('TR-04 a revoked, an expired and an already rolled token are each 400 invalid_request saying why, and no token is made', async () => {
    const account = await newAccount('Refused Roller');
    const revoked = await created(account, { name: 'revoked' });
    expect(
      (await callAccount(system, 'POST', `/account/tokens/${revoked.token.id}/revoke`, { token: account.portal }))
        .status,
    ).toBe(200);
    const expiring = await created(account, { name: 'expired', expires_in_days: 1 });
    const rolledOnce = await created(account, { name: 'rolled once' });
    const first = await rollToken(account, rolledOnce.token.id, { overlap: '24h' });
    expect(first.status, first.text).toBe(201);
    const rolledNone = await created(account, { name: 'rolled with none' });
    expect((await rollToken(account, rolledNone.token.id, { overlap: 'none' })).status).toBe(201);
    system.clock.advance(DAY + 1000);

    const rows = await tokenRows();
    const snapshot = await Promise.all(
      [revoked, expiring, rolledOnce, rolledNone].map((token) => storedRow(token.token.id)),
    );
    const messages: string[] = [];
    for (const [token, why] of [
      [revoked, /revoked/],
      [expiring, /expired/],
      [rolledOnce, /already rolled/],
      [rolledNone, /already rolled/],
    ] as const) {
      const res = await rollToken(account, token.token.id, { overlap: '1h' });
      expectBadRequest(res, 'invalid_request');
      expect(res.body.error_description, token.token.name).toMatch(why);
      messages.push(res.body.error_description);
    }
    // Each reason in its own words.
    expect(new Set(messages.slice(0, 3)).size).toBe(3);
    expect(await tokenRows()).toBe(rows);
    expect(
      await Promise.all([revoked, expiring, rolledOnce, rolledNone].map((token) => storedRow(token.token.id))),
    ).toEqual(snapshot);
    // The token that replaced the rolled one still works; rolling it is allowed.
    await expectApiAccepts(first.body.value);
  });

  it('TR-04 an application’s (OAuth) token is 400 invalid_request; another user’s token or an unknown id is 404 not_found', async () => {
    const alice = await newAccount('Alice Roller');
    const bob = await newAccount('Bob Roller');
    const { client } = await makeClient(system, alice.user, { name: 'Rolled App' });
    const pair = await issueThirdPartyTokens(system, client, alice.user);
    const { tokenId: oauthId } = await authenticateAccessToken(system.db, system.clock, pair.accessToken);
    const mine = await created(alice, { name: 'alice’s' });
    const rows = await tokenRows();

    const oauth = await rollToken(alice, oauthId, { overlap: '1h' });
    expectBadRequest(oauth, 'invalid_request');
    expect(oauth.body.error_description).toMatch(/application/);
    await expectApiAccepts(pair.accessToken);

    for (const [account, id] of [
      [bob, mine.token.id],
      [bob, oauthId],
      [alice, 'tok_unknown'],
    ] as const) {
      const res = await rollToken(account, id, { overlap: 'none' });
      expect(res.status, `${account.user.name} ${id}`).toBe(404);
      expect(res.body.error).toBe('not_found');
      expect(res.body).not.toHaveProperty('value');
    }
    expect(await tokenRows()).toBe(rows);
    await expectApiAccepts(mine.value);
    expect(await listed(alice, mine.token.id)).toEqual(mine.token);
  });

  it('TR-04 ten concurrent rolls of one token: exactly one 201 and one new token row; the others are 400 already rolled', async () => {
    const account = await newAccount('Racing Roller');
    const old = await created(account, { name: 'raced' });
    const rows = await tokenRows();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => rollToken(account, old.token.id, { overlap: '1h' })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(400)]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.body).toMatchObject({ error: 'invalid_request' });
      expect(answer.body.error_description).toMatch(/already rolled/);
    }
    expect(await tokenRows()).toBe(rows + 1);
    const winner = answers.find((answer) => answer.status === 201)!.body;
    expect((await storedRow(old.token.id)).replaced_by).toBe(winner.token.id);
    const pats = await listTokensForUser(system.db, system.clock, account.user.id);
    expect(pats.map((token) => token.id).sort()).toEqual([old.token.id, winner.token.id].sort());
    await expectApiAccepts(winner.value);
  });
});
