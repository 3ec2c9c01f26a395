import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Principal } from '@latchkey/core';
import { challengesOf } from '../bearer/challenge.ts';
import { capturingLogger } from '../testing/api-server.ts';
import { createGraphqlHandler } from './graphql.handler.ts';
import { GraphQLError, GraphQLObjectType, GraphQLSchema, GraphQLString } from './graphql-js.ts';

// A schema whose resolvers fail, run through the API's own GraphQL handler.
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      broken: {
        type: GraphQLString,
        resolve: () => {
          throw new Error('SQLITE_CORRUPT: database disk image is malformed (SELECT secret FROM users)');
        },
      },
      forbidden: {
        type: GraphQLString,
        resolve: () => {
          throw new GraphQLError('You may not see this.', { extensions: { code: 'FORBIDDEN' } });
        },
      },
      fine: { type: GraphQLString, resolve: () => 'ok' },
    },
  }),
});

const principal: Principal = {
  tokenId: 'tok_1',
  kind: 'pat',
  userId: 'usr_1',
  userName: 'Test',
  userEmail: 'test@example.test',
  clientId: null,
  issuedAt: Date.UTC(2026, 0, 1),
  expiresAt: Date.UTC(2030, 0, 1),
  firstParty: false,
  scopes: ['profile', 'email'],
  audience: LATCHKEY_API_AUDIENCE,
};

async function run(query: string, logger = capturingLogger()) {
  const handler = createGraphqlHandler({ schema, logger: logger.logger, introspection: true, production: true });
  const [body, init] = await handler({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
    raw: { headers: {} } as IncomingMessage,
    context: {
      principal,
      challenges: challengesOf({
        metadataUrl: 'https://api.example.test/.well-known/oauth-protected-resource/graphql',
      }),
    },
  });
  return { status: init.status, body: JSON.parse(body!), text: body!, lines: logger.lines };
}

describe('GQ-29 resolver errors are masked', () => {
  it('an unexpected error becomes "Internal server error" with no stack, SQL or cause; the log keeps it', async () => {
    const answer = await run('{ fine broken }');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { fine: 'ok', broken: null },
      errors: [
        {
          message: 'Internal server error',
          locations: [{ line: 1, column: 8 }],
          path: ['broken'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ],
    });
    expect(answer.text).not.toMatch(/SQLITE|SELECT|stack|\.ts:/);
    expect(answer.lines.join('\n')).toContain('SQLITE_CORRUPT');
  });

  it('a deliberate GraphQLError keeps its message and code', async () => {
    const answer = await run('{ forbidden }');
    expect(answer.body.errors).toEqual([
      {
        message: 'You may not see this.',
        locations: [{ line: 1, column: 3 }],
        path: ['forbidden'],
        extensions: { code: 'FORBIDDEN' },
      },
    ]);
    expect(answer.lines).toEqual([]);
  });
});
