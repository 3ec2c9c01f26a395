// A peer on the Fetch API: GraphQL Yoga 5 (its parse and validation caches on by default) on a
// node:http server, on the same schema and with the same token check in its context function.
import { createServer, type IncomingMessage } from 'node:http';
import { createGraphQLError, createSchema, createYoga } from 'graphql-yoga';
import { authenticateAccessToken, LastUsedRecorder, systemClock } from '@latchkey/core';
import { openDatabase, parseBearerAuthorization } from '@latchkey/runtime';
import type { ApiContext } from '../../apps/api/src/graphql/api-context.ts';
import { profileOf } from '../../apps/api/src/graphql/profile/profile.schema.ts';
import { schemaSdl } from '../../apps/api/src/graphql/schema.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const db = await openDatabase(config, systemClock);
const recorder = new LastUsedRecorder(db);

function unauthenticated(message: string) {
  return createGraphQLError(message, {
    extensions: {
      code: 'UNAUTHENTICATED',
      http: { status: 401, headers: { 'www-authenticate': 'Bearer realm="api"' } },
    },
  });
}

const yoga = createYoga<{ req: IncomingMessage }, ApiContext>({
  schema: createSchema<{ req: IncomingMessage } & ApiContext>({
    typeDefs: schemaSdl,
    resolvers: {
      Query: { profile: (_root: unknown, _args: unknown, context: ApiContext) => profileOf(context.principal) },
    },
  }),
  context: async ({ req }) => {
    const credentials = parseBearerAuthorization(req);
    if (credentials.kind !== 'token') throw unauthenticated('Authentication required');
    try {
      const principal = await authenticateAccessToken(db, systemClock, credentials.token);
      recorder.record(principal.tokenId, systemClock.now());
      return { principal };
    } catch {
      throw unauthenticated('The access token is invalid.');
    }
  },
  graphiql: false,
  logging: false,
});
const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  announce(typeof address === 'object' && address !== null ? address.port : 0);
});
