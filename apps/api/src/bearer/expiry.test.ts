import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAllTokens, redeemAuthorizationCode, type User } from '@latchkey/core';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makeClient, makeCode, makePat, makeUser } from '#test/support/fixtures.ts';
import { invalidTokenChallenge, postGraphql } from '../testing/post-graphql.ts';

// This file moves the clock a year forward, so it has a system of its own.
let system: TestSystem;
let user: User;

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system, 'Hedy Lamarr');
});
afterAll(() => system?.close());

const SECOND = 1000;

describe('GQ-10/RV-05 tokens expire after one year', () => {
  it('D-3 the default lifetime is one year', () => {
    expect(system.config.tokenTtlSeconds).toBe(365 * 24 * 60 * 60);
  });

  it('a PAT works one second before its expiry and is refused one second after', async () => {
    const pat = await makePat(system, user);
    const oauth = await redeemAuthorizationCode(
      system.db,
      system.clock,
      { tokenTtlSeconds: system.config.tokenTtlSeconds, refreshTokenTtlSeconds: system.config.refreshTokenTtlSeconds },
      await (async () => {
        const { client } = await makeClient(system, user);
        return { client, code: await makeCode(system, client, user), redirectUri: client.redirectUris[0]!, codeVerifier: undefined };
      })(),
    );
    const lifetime = system.config.tokenTtlSeconds * SECOND;

    system.clock.advance(lifetime - SECOND);
    for (const token of [pat, oauth.accessToken]) {
      const answer = await postGraphql(system.apiUrl, { token });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ data: { profile: { name: 'Hedy Lamarr' } } });
    }

    system.clock.advance(2 * SECOND);
    for (const token of [pat, oauth.accessToken]) {
      const answer = await postGraphql(system.apiUrl, { token });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(invalidTokenChallenge(system.apiUrl, 'The access token expired.'));
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.json).toEqual({ errors: [{ message: 'The access token expired.', extensions: { code: 'UNAUTHENTICATED' } }] });
    }
    // RV-05: the token list shows it as expired.
    const statuses = (await listAllTokens(system.db, system.clock, user.id)).map((t) => t.status);
    expect(statuses).toEqual(['expired', 'expired']);
  });
});
