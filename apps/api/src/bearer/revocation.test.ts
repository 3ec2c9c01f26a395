import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPersonalAccessToken,
  deleteUser,
  InvalidGrant,
  listAllTokens,
  redeemAuthorizationCode,
  refreshTokens,
  revokeAccessToken,
  revokeClient,
  type Client,
  type TokenPair,
  type User,
} from '@latchkey/core';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makeClient, makeCode, makePat, makeUser } from '#test/support/fixtures.ts';
import { invalidTokenChallenge, postGraphql } from '../testing/post-graphql.ts';

let system: TestSystem;
let user: User;
let other: User;
let client: Client;

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system, 'Katherine Johnson');
  other = await makeUser(system, 'Dorothy Vaughan');
  ({ client } = await makeClient(system, user));
});
afterAll(() => system?.close());

const lifetimes = () => ({
  tokenTtlSeconds: system.config.tokenTtlSeconds,
  refreshTokenTtlSeconds: system.config.refreshTokenTtlSeconds,
});

async function exchange(forUser: User, forClient = client): Promise<{ code: string; pair: TokenPair }> {
  const code = await makeCode(system, forClient, forUser);
  const pair = await redeemAuthorizationCode(system.db, system.clock, lifetimes(), {
    client: forClient,
    code,
    redirectUri: forClient.redirectUris[0]!,
    codeVerifier: undefined,
  });
  return { code, pair };
}

async function expectWorks(token: string, name: string): Promise<void> {
  const answer = await postGraphql(system.apiUrl, { token });
  expect(answer.status).toBe(200);
  expect(answer.json).toEqual({ data: { profile: { name } } });
}

async function expectRevoked(token: string): Promise<void> {
  const answer = await postGraphql(system.apiUrl, { token });
  expect(answer.status).toBe(401);
  expect(answer.headers.get('www-authenticate')).toBe(invalidTokenChallenge(system.apiUrl));
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  expect(answer.json.data).toBeUndefined();
}

describe('GQ-09 a revoked token is refused on the very next request (DD-5)', () => {
  it("GQ-09/RV-01 OB-21 PAT revoked with revokeAccessToken: 401 invalid_token at the next request; the user's other PAT still works", async () => {
    const { token, summary } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
      userId: user.id,
      name: 'to revoke',
    });
    const kept = await makePat(system, user, 'kept');
    await expectWorks(token, 'Katherine Johnson');
    await revokeAccessToken(system.db, system.clock, summary.id, user.id);
    await expectRevoked(token);
    await expectWorks(kept, 'Katherine Johnson');
  });

  it('GQ-09/RV-03 OAuth access tokens of a revoked client: 401 for every user of that client; PATs unaffected', async () => {
    const { client: doomed } = await makeClient(system, other, { name: 'Doomed App' });
    const mine = await exchange(user, doomed);
    const theirs = await exchange(other, doomed);
    const pat = await makePat(system, user);
    await expectWorks(mine.pair.accessToken, 'Katherine Johnson');
    await expectWorks(theirs.pair.accessToken, 'Dorothy Vaughan');
    await revokeClient(system.db, system.clock, doomed.id);
    await expectRevoked(mine.pair.accessToken);
    await expectRevoked(theirs.pair.accessToken);
    await expectWorks(pat, 'Katherine Johnson');
  });

  it('GQ-09/AC-02 access token revoked by a replay of its authorization code', async () => {
    const { code, pair } = await exchange(user);
    const bystander = await exchange(user);
    await expectWorks(pair.accessToken, 'Katherine Johnson');
    await expect(
      redeemAuthorizationCode(system.db, system.clock, lifetimes(), {
        client,
        code,
        redirectUri: client.redirectUris[0]!,
        codeVerifier: undefined,
      }),
    ).rejects.toBeInstanceOf(InvalidGrant);
    await expectRevoked(pair.accessToken);
    // Only what that code issued dies (RV-06).
    await expectWorks(bystander.pair.accessToken, 'Katherine Johnson');
  });

  it('GQ-09/RT-02 access token of a family revoked by refresh-token reuse', async () => {
    const { pair: first } = await exchange(user);
    const second = await refreshTokens(system.db, system.clock, lifetimes(), client, first.refreshToken);
    // Rotation retires the previous access token (one live pair per grant).
    await expectRevoked(first.accessToken);
    await expectWorks(second.accessToken, 'Katherine Johnson');
    await expect(
      refreshTokens(system.db, system.clock, lifetimes(), client, first.refreshToken),
    ).rejects.toBeInstanceOf(InvalidGrant);
    await expectRevoked(second.accessToken);
  });

  it('GQ-10b PAT and OAuth token of a deleted user: 401 invalid_token; other users unaffected', async () => {
    const doomed = await makeUser(system, 'Mary Jackson');
    const pat = await makePat(system, doomed);
    const { pair } = await exchange(doomed);
    const otherPat = await makePat(system, other);
    await expectWorks(pat, 'Mary Jackson');
    await expectWorks(pair.accessToken, 'Mary Jackson');
    await deleteUser(system.db, doomed.id);
    await expectRevoked(pat);
    await expectRevoked(pair.accessToken);
    expect((await listAllTokens(system.db, system.clock, doomed.id)).length).toBe(0);
    await expectWorks(otherPat, 'Dorothy Vaughan');
  });
});
