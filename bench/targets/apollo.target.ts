// The peer a user would otherwise pick: Apollo Server 5's standalone server on the same schema,
// with the same token check (peer-token-check.ts) in its context function.
import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { pino } from 'pino';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { ApiContext } from '../../apps/api/src/graphql/api-context.ts';
import { profileOf } from '../../apps/api/src/graphql/profile/profile.schema.ts';
import { schemaSdl } from '../../apps/api/src/graphql/schema.ts';
import { openPeerTokenCheck } from './peer-token-check.ts';
import { announce } from './target-ready.ts';

const checkToken = await openPeerTokenCheck();

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

// BENCH_LOG_FILE (issue 34): Apollo Server logs no requests itself; its users add a plugin that
// does, as its documentation shows (requestDidStart). One pino line per request, to a file.
const logFile = process.env.BENCH_LOG_FILE;
const logger =
  logFile === undefined ? undefined : pino({ level: 'info' }, pino.destination({ dest: logFile, sync: false }));
const requestLogging: ApolloServerPlugin<ApiContext> = {
  async requestDidStart({ request }) {
    const started = performance.now();
    return {
      async willSendResponse({ response }) {
        logger!.info(
          {
            operationName: request.operationName,
            status: response.http.status ?? 200,
            durationMs: performance.now() - started,
          },
          'request',
        );
      },
    };
  },
};

const server = new ApolloServer<ApiContext>({
  plugins: logger === undefined ? [] : [requestLogging],
  typeDefs: schemaSdl,
  resolvers: {
    Query: { profile: (_root: unknown, _args: unknown, context: ApiContext) => profileOf(context.principal) },
  },
});
const { url } = await startStandaloneServer(server, {
  listen: { port: 0, host: '127.0.0.1' },
  context: async ({ req }) => {
    const principal = await checkToken(req);
    if ('refused' in principal) throw unauthenticated(principal.refused);
    return { principal };
  },
});
announce(Number(new URL(url).port));
