// A peer on the Fetch API: GraphQL Yoga 5 (its parse and validation caches on by default) on a
// node:http server, on the same schema and with the same token check in its context function.
import { createServer, type IncomingMessage } from 'node:http';
import { createGraphQLError, createSchema, createYoga } from 'graphql-yoga';
import type { ApiContext } from '../../apps/api/src/graphql/api-context.ts';
import { profileOf } from '../../apps/api/src/graphql/profile/profile.schema.ts';
import { schemaSdl } from '../../apps/api/src/graphql/schema.ts';
import { openPeerTokenCheck } from './peer-token-check.ts';
import { announce } from './target-ready.ts';

const checkToken = await openPeerTokenCheck();

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
    const principal = await checkToken(req);
    if ('refused' in principal) throw unauthenticated(principal.refused);
    return { principal };
  },
  graphiql: false,
  logging: false,
});
const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  announce(typeof address === 'object' && address !== null ? address.port : 0);
});
