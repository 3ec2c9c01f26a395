import { describe, expect, it } from 'vitest';
import { createPersonalAccessToken } from '@latchkey/core';
import { useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { postGraphql, type GraphqlAnswer } from '../testing/post-graphql.ts';
import { bearerChallenge, challengesOf } from './challenge.ts';

const METADATA = 'https://api.example.test/.well-known/oauth-protected-resource/graphql';

describe('RS-14 challenge syntax (RFC 6750 §3, RFC 9728 §5.1)', () => {
  it('RS-14 realm, then error, error_description and scope when given, then resource_metadata', () => {
    const endpoint = { metadataUrl: METADATA };
    expect(bearerChallenge(endpoint)).toBe(`Bearer realm="api", resource_metadata="${METADATA}"`);
    expect(bearerChallenge(endpoint, { error: 'invalid_token', description: 'The access token expired.' })).toBe(
      `Bearer realm="api", error="invalid_token", error_description="The access token expired.", resource_metadata="${METADATA}"`,
    );
    expect(bearerChallenge(endpoint, { error: 'insufficient_scope', scope: 'profile email' })).toBe(
      `Bearer realm="api", error="insufficient_scope", scope="profile email", resource_metadata="${METADATA}"`,
    );
  });

  it("RS-14 error_description keeps to RFC 6750 §3's characters: no double quote, backslash, control or non-ASCII character", () => {
    const challenge = bearerChallenge(
      { metadataUrl: METADATA },
      {
        error: 'invalid_request',
        description: 'Use "Bearer <token>" \\ not\tthis — ok',
      },
    );
    expect(challenge).toBe(
      `Bearer realm="api", error="invalid_request", error_description="Use 'Bearer <token>'  notthis  ok", resource_metadata="${METADATA}"`,
    );
  });

  it("RS-14 an endpoint's challenges are made once and kept: the same strings, the same object for the same URL", () => {
    const challenges = challengesOf({ metadataUrl: METADATA });
    expect(challengesOf({ metadataUrl: METADATA })).toBe(challenges);
    expect(challengesOf(challenges)).toBe(challenges);
    expect(challenges.invalidToken('x')).toBe(challenges.invalidToken('x'));
    expect(challenges.insufficientScope(['email'])).toBe(
      `Bearer realm="api", error="insufficient_scope", scope="email", resource_metadata="${METADATA}"`,
    );
    expect(challengesOf({ metadataUrl: `${METADATA}x` })).not.toBe(challenges);
  });
});

// Over HTTP: every refusal at /graphql names /graphql's metadata, whose `resource` is the URL
// the client called (RFC 9728 §3.3, the check the MCP SDK's client makes before it trusts it).
const system = useSystem();
const { user } = useUsers(system, { user: 'Grace Hopper' });

function metadataUrlOf(answer: GraphqlAnswer): string {
  const match = /resource_metadata="([^"]+)"/.exec(answer.headers.get('www-authenticate') ?? '');
  expect(match).not.toBeNull();
  return match![1]!;
}

describe('RS-14 every 401 at /graphql carries resource_metadata', () => {
  it('RS-14 without credentials, with a Basic header, a refused token and a malformed header: the same URL, the error as before', async () => {
    const metadataUrl = `${system.apiUrl}/.well-known/oauth-protected-resource/graphql`;
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['no credentials', {}, 401, `Bearer realm="api", resource_metadata="${metadataUrl}"`],
      ['Basic', { authorization: 'Basic dXNlcjpwYXNz' }, 401, `Bearer realm="api", resource_metadata="${metadataUrl}"`],
      [
        'unknown token',
        { authorization: 'Bearer lkp_notavalidtokenatall' },
        401,
        `Bearer realm="api", error="invalid_token", error_description="The access token is invalid.", resource_metadata="${metadataUrl}"`,
      ],
      [
        '"Bearer" alone',
        { authorization: 'Bearer' },
        400,
        `Bearer realm="api", error="invalid_request", error_description="The Authorization header must be 'Bearer <token>'.", resource_metadata="${metadataUrl}"`,
      ],
    ];
    for (const [label, headers, status, challenge] of cases) {
      const answer = await postGraphql(system.apiUrl, { headers });
      expect(answer.status, label).toBe(status);
      expect(answer.headers.get('www-authenticate'), label).toBe(challenge);
    }
  });

  it('RS-14 the URL a challenge names serves the document of the resource called', async () => {
    const answer = await postGraphql(system.apiUrl, {});
    const document = await (await fetch(metadataUrlOf(answer))).json();
    expect(document.resource).toBe(`${system.apiUrl}/graphql`);
    expect(document.authorization_servers).toEqual([system.authUrl]);
  });

  it('RS-14 an expired token: 401 invalid_token saying so, with resource_metadata', async () => {
    const { token } = await createPersonalAccessToken(system.db, system.clock, 60, { userId: user.id, name: 'short' });
    expect((await postGraphql(system.apiUrl, { token })).status).toBe(200);
    system.clock.advance(61_000);
    const answer = await postGraphql(system.apiUrl, { token });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer realm="api", error="invalid_token", error_description="The access token expired.", resource_metadata="${system.apiUrl}/.well-known/oauth-protected-resource/graphql"`,
    );
  });
});
