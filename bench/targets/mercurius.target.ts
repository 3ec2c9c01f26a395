// A peer on another stack: Mercurius 16 on Fastify 5, with graphql-jit compiling the query after
// its first request (`jit: 1`), on the same schema and with the same token check in an
// onRequest hook. JIT is on for the comparison only: graphql-jit 0.8.9 runs code smuggled in a
// string argument (docs/decisions/005-graphql-execution-plan.md). The benchmark's query has no
// argument, so it measures the compiler's speed, nothing else.
import Fastify from 'fastify';
import mercurius from 'mercurius';
import type { Principal } from '@latchkey/core';
import type { ApiContext } from '../../apps/api/src/graphql/api-context.ts';
import { profileOf } from '../../apps/api/src/graphql/profile/profile.schema.ts';
import { schemaSdl } from '../../apps/api/src/graphql/schema.ts';
import { openPeerTokenCheck } from './peer-token-check.ts';
import { announce } from './target-ready.ts';

declare module 'mercurius' {
  // The context function below adds the principal to every request's context.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the members
  interface MercuriusContext extends ApiContext {}
}

const checkToken = await openPeerTokenCheck();
const principals = new WeakMap<object, Principal>();

// BENCH_LOG_FILE (issue 34): Fastify's own request logging, as its users deploy it: pino at info
// to a file, two lines per request ("incoming request", "request completed").
const logFile = process.env.BENCH_LOG_FILE;
const app = Fastify({ logger: logFile === undefined ? false : { level: 'info', file: logFile } });
app.addHook('onRequest', async (request, reply) => {
  const principal = await checkToken(request.raw);
  if ('refused' in principal) {
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="api"')
      .send({ errors: [{ message: principal.refused, extensions: { code: 'UNAUTHENTICATED' } }] });
  }
  principals.set(request, principal);
});
await app.register(mercurius, {
  schema: schemaSdl,
  resolvers: {
    Query: { profile: (_root: unknown, _args: unknown, context: ApiContext) => profileOf(context.principal) },
  },
  context: (request): ApiContext => ({ principal: principals.get(request)! }),
  jit: 1,
  graphiql: false,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
announce(typeof address === 'object' && address !== null ? address.port : 0);
