import { describe, expect, it } from 'vitest';
import type { Scope } from '@latchkey/contracts';
import { createPersonalAccessToken, issueAuthorizationCode, redeemAuthorizationCode } from '@latchkey/core';
import { makeClient, makePat, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { insufficientScopeChallenge, postGraphql, type GraphqlAnswer } from '../testing/post-graphql.ts';

// SC-06 over HTTP with real tokens: each query is sent twice, so the first answer comes from
// graphql-http's route (the document is not cached yet) and the second from the fast path.

const system = useSystem();
const { user } = useUsers(system, { user: 'Grace Hopper' });

async function pat(scopes?: Scope[]): Promise<string> {
  const { token } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
    userId: user.id,
    name: 'scoped token',
    ...(scopes ? { scopes } : {}),
  });
  return token;
}

async function oauthToken(scopes?: Scope[]): Promise<string> {
  const { client } = await makeClient(system, user);
  const redirectUri = client.redirectUris[0]!;
  const code = await issueAuthorizationCode(system.db, system.clock, {
    client,
    userId: user.id,
    redirectUri,
    codeChallenge: null,
    ...(scopes ? { scopes } : {}),
  });
  const pair = await redeemAuthorizationCode(
    system.db,
    system.clock,
    { tokenTtlSeconds: system.config.tokenTtlSeconds, refreshTokenTtlSeconds: system.config.refreshTokenTtlSeconds },
    { client, code, redirectUri, codeVerifier: undefined },
  );
  return pair.accessToken;
}

const tokens = perFile(async () => ({
  profilePat: { token: await pat(['profile']) },
  profileOauth: { token: await oauthToken(['profile']) },
  defaultPat: { token: await makePat(system, user) },
  defaultOauth: { token: await oauthToken() },
}));

const PROFILE_ONLY = [
  ['a profile-only PAT', () => tokens.profilePat.token],
  ['a profile-only OAuth token', () => tokens.profileOauth.token],
] as const;

/** The same request twice (graphql-http's route, then the fast path): both answers must agree. */
async function twice(token: string, query: string, accept?: string): Promise<GraphqlAnswer> {
  const headers: Record<string, string> = accept === undefined ? {} : { accept };
  const first = await postGraphql(system.apiUrl, { token, query, headers });
  const second = await postGraphql(system.apiUrl, { token, query, headers });
  expect(second.status).toBe(first.status);
  expect(second.text).toBe(first.text);
  expect(second.headers.get('www-authenticate')).toBe(first.headers.get('www-authenticate'));
  expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
  return first;
}

function expectRefused(answer: GraphqlAnswer, missing: Scope[]): void {
  expect(answer.status).toBe(403);
  expect(answer.headers.get('www-authenticate')).toBe(insufficientScopeChallenge(system.apiUrl, missing.join(' ')));
  expect(answer.headers.get('cache-control')).toBe('no-store');
  // Nothing is partly answered: no `data` at all.
  expect(answer.json).toEqual({
    errors: [
      {
        message: expect.stringContaining(missing.join(' ')),
        extensions: { code: 'INSUFFICIENT_SCOPE', scopes: missing },
      },
    ],
  });
}

describe('SC-06 the API enforces scopes per field', () => {
  describe.each(PROFILE_ONLY)('%s', (_label, token) => {
    it('SC-06 { profile { name } } and { profile { id } }: 200', async () => {
      expect((await twice(token(), '{ profile { name } }')).json).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
      expect((await twice(token(), '{ profile { id } }')).json).toEqual({ data: { profile: { id: user.id } } });
    });

    it('SC-06 { profile { email } }: 403, insufficient_scope challenge naming email, extensions naming it', async () => {
      expectRefused(await twice(token(), '{ profile { email } }'), ['email']);
      const graphqlResponse = await twice(token(), '{ profile { email } }', 'application/graphql-response+json');
      expectRefused(graphqlResponse, ['email']);
      expect(graphqlResponse.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    });

    it('SC-06 { profile { id email } }: 403 with no data, not the id alone', async () => {
      const answer = await twice(token(), '{ profile { id email } }');
      expectRefused(answer, ['email']);
      expect(answer.text).not.toContain(user.id);
    });

    it('SC-06 email through a fragment, an inline fragment or an alias: 403', async () => {
      for (const query of [
        '{ profile { name ...Contact } } fragment Contact on Profile { email }',
        '{ profile { ... on Profile { email } } }',
        '{ profile { name } me: profile { address: email } }',
        'query Mine { ...Root } fragment Root on Query { profile { ...Contact } } fragment Contact on Profile { email }',
      ]) {
        expectRefused(await twice(token(), query), ['email']);
      }
    });

    it('SC-06 over GET too: 403', async () => {
      const answer = await postGraphql(system.apiUrl, {
        token: token(),
        method: 'GET',
        path: `/graphql?query=${encodeURIComponent('{ profile { email } }')}`,
      });
      expectRefused(answer, ['email']);
    });

    it('SC-06 introspection, __typename and profile alone need no scope: 200', async () => {
      const schema = await twice(token(), '{ __schema { queryType { name } } }');
      expect(schema.json).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
      const type = await twice(token(), '{ __type(name: "Profile") { fields { name } } }');
      expect(type.status).toBe(200);
      expect(type.json.data.__type.fields.map((f: { name: string }) => f.name)).toContain('email');
      expect((await twice(token(), '{ profile { __typename } }')).json).toEqual({ data: { profile: { __typename: 'Profile' } } });
    });

    it('SC-06 a query that does not parse or validate keeps its answer (400 before the scope check)', async () => {
      const invalid = await twice(token(), '{ profile { email nme } }', 'application/graphql-response+json');
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('www-authenticate')).toBeNull();
      expect(invalid.json.errors[0].message).toContain('nme');
      const unparsable = await twice(token(), '{ profile { email ', 'application/graphql-response+json');
      expect(unparsable.status).toBe(400);
      expect(unparsable.json.errors[0].message).toMatch(/^Syntax Error/);
    });
  });

  it.each([
    ['a default PAT', () => tokens.defaultPat.token],
    ['a default OAuth token', () => tokens.defaultOauth.token],
  ])('SC-06 %s (profile email) answers { profile { id name email } } as before', async (_label, token) => {
    const answer = await twice(token(), '{ profile { id name email } }');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('www-authenticate')).toBeNull();
    expect(answer.json).toEqual({ data: { profile: { id: user.id, name: 'Grace Hopper', email: user.email } } });
  });

  it('SC-06 a token with email but not profile: 403 naming profile for { profile { id name email } }', async () => {
    expectRefused(await twice(await pat(['email']), '{ profile { id name email } }'), ['profile']);
  });
});

describe('RS-15 a 403 for missing scopes is a step-up challenge', () => {
  it.each(PROFILE_ONLY)(
    'RS-15 %s asking for email: error="insufficient_scope", scope="email" and /graphql\'s resource_metadata, on both paths',
    async (_label, token) => {
      const answer = await twice(token(), '{ profile { name email } }');
      expect(answer.status).toBe(403);
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer realm="api", error="insufficient_scope", scope="email", resource_metadata="${system.apiUrl}/.well-known/oauth-protected-resource/graphql"`,
      );
    },
  );

  it('RS-15 the document it names offers the missing scope, so a client can ask for it', async () => {
    const answer = await twice(tokens.profilePat.token, '{ profile { email } }');
    const url = /resource_metadata="([^"]+)"/.exec(answer.headers.get('www-authenticate')!)![1]!;
    const document = await (await fetch(url)).json();
    expect(document.resource).toBe(`${system.apiUrl}/graphql`);
    expect(document.scopes_supported).toContain('email');
  });
});
