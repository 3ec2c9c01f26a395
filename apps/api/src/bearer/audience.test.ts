import { describe, expect, it } from 'vitest';
import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import type { Client } from '@latchkey/core';
import { makeAccessToken, makeClient, makePat, makeResourceServer, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { invalidTokenChallenge, postGraphql } from '../testing/post-graphql.ts';

// RS-06: the API takes only tokens whose audience is the Latchkey API. A token minted for
// another registered resource server (RFC 8707) is valid there, never here.

const system = useSystem();
const { user } = useUsers(system, { user: 'Grace Hopper' });

const NOT_FOR_THIS_API = 'The access token is not for this API.';

const oauthToken = (client: Client, audience?: string) => makeAccessToken(system, client, user, { audience });

const fixture = perFile(async () => {
  const { client } = await makeClient(system, user);
  const resourceServer = await makeResourceServer(system, 'Calendar');
  return {
    resourceServer,
    tokens: {
      forCalendar: await oauthToken(client, resourceServer.id),
      forApi: await oauthToken(client, LATCHKEY_API_AUDIENCE),
      withoutResource: await oauthToken(client),
      pat: await makePat(system, user),
    },
  };
});

describe('RS-06 the API accepts only tokens for the Latchkey API', () => {
  it('RS-06 the token of another resource server is stored with its audience (the test is not vacuous)', async () => {
    const rows = await system.db
      .selectFrom('access_tokens')
      .select(['audience'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((row) => row.audience).sort()).toEqual(
      [fixture.resourceServer.id, LATCHKEY_API_AUDIENCE, LATCHKEY_API_AUDIENCE, LATCHKEY_API_AUDIENCE].sort(),
    );
  });

  it("RS-06, RS-14 a token minted for another registered resource server: 401 invalid_token with /graphql's resource_metadata, over POST and GET, and the fast path", async () => {
    const query = '{ profile { name } }';
    // Twice: the second POST's document is cached, so the fast path would answer it.
    for (const call of [
      { token: fixture.tokens.forCalendar, query },
      { token: fixture.tokens.forCalendar, query },
      {
        token: fixture.tokens.forCalendar,
        method: 'GET',
        path: `/graphql?query=${encodeURIComponent(query)}`,
        headers: { accept: 'application/graphql-response+json' },
      },
    ]) {
      const answer = await postGraphql(system.apiUrl, call);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(invalidTokenChallenge(system.apiUrl, NOT_FOR_THIS_API));
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.json).toEqual({ errors: [{ message: NOT_FOR_THIS_API, extensions: { code: 'UNAUTHENTICATED' } }] });
    }
  });

  it('RS-06 a token issued without `resource`, one for the API named explicitly, and a PAT: answered as before', async () => {
    for (const token of [fixture.tokens.withoutResource, fixture.tokens.forApi, fixture.tokens.pat]) {
      const answer = await postGraphql(system.apiUrl, { token, query: '{ profile { name email } }' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('www-authenticate')).toBeNull();
      expect(answer.json).toEqual({ data: { profile: { name: 'Grace Hopper', email: user.email } } });
    }
  });

  it('RS-06 the refused token is not recorded as used by the API', async () => {
    await postGraphql(system.apiUrl, { token: fixture.tokens.forCalendar });
    await postGraphql(system.apiUrl, { token: fixture.tokens.withoutResource });
    // The recorder flushes every few seconds; wait for one flush past the calls above.
    await expect
      .poll(
        async () =>
          (
            await system.db
              .selectFrom('access_tokens')
              .select(['last_used_at'])
              .where('audience', '=', LATCHKEY_API_AUDIENCE)
              .where('user_id', '=', user.id)
              .execute()
          ).some((row) => row.last_used_at !== null),
        { timeout: 15_000 },
      )
      .toBe(true);
    const refused = await system.db
      .selectFrom('access_tokens')
      .select(['last_used_at'])
      .where('audience', '=', fixture.resourceServer.id)
      .executeTakeFirstOrThrow();
    expect(refused.last_used_at).toBeNull();
  });
});
