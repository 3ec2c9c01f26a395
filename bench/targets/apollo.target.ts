// The peer a user would otherwise pick: Apollo Server 5's standalone server on the same schema,
// with the same token check (core authenticateAccessToken, last use recorded in memory) in its
// context function.
import { ApolloServer, HeaderMap } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { authenticateAccessToken, LastUsedRecorder, systemClock } from '@latchkey/core';
import { openDatabase } from '@latchkey/runtime';
import { parseBearerAuthorization } from '@latchkey/runtime';
import type { ApiContext } from '../../apps/api/src/graphql/api-context.ts';
import { profileOf } from '../../apps/api/src/graphql/profile/profile.schema.ts';
import { schemaSdl } from '../../apps/api/src/graphql/schema.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const db = await openDatabase(config, systemClock);
const recorder = new LastUsedRecorder(db);

function unauthenticated(message: string): Error {
  // Apollo copies `extensions` of a non-GraphQL error thrown by the context function into
  // the error it answers with, including the HTTP status and headers.
  return Object.assign(new Error(message), {
    extensions: {
      code: 'UNAUTHENTICATED',
      http: { status: 401, headers: new HeaderMap([['www-authenticate', 'Bearer realm="api"']]) },
    },
  });
}

const server = new ApolloServer<ApiContext>({
  typeDefs: schemaSdl,
  resolvers: { Query: { profile: (_root: unknown, _args: unknown, context: ApiContext) => profileOf(context.principal) } },
});
const { url } = await startStandaloneServer(server, {
  listen: { port: 0, host: '127.0.0.1' },
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
});
announce(Number(new URL(url).port));
