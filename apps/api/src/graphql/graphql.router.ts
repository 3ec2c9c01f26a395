import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '@latchkey/config';
import type { Clock, LastUsedRecorder } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import { tokenCheckCountersOf, type Observability } from '@latchkey/observability';
import { authenticateBearer, type BearerRejection } from '../bearer/authenticate-bearer.ts';
import { challengesOf } from '../bearer/challenge.ts';
import { tokenUse } from '../bearer/token-use.ts';
import { parseBearerAuthorization } from '@latchkey/http';
import { JSON_CONTENT_TYPE, sendBody, sendJsonError } from '../http/json-response.ts';
import { bufferedBody, NOT_BUFFERED, readBody, TOO_LARGE } from '../http/read-body.ts';
import { resourceMetadataUrl } from '../resource-metadata/resource-metadata.route.ts';
import type { GraphqlHandler } from './graphql.handler.ts';
import type { RouteContext } from './insufficient-scope.ts';
import { GRAPHQL_RESPONSE, RESPONSE_CONTENT_TYPE, responseMediaType } from './media-types.ts';

/** GQ-21: far above any real query of this schema (GQ-22 stops a document at 2,000 tokens). */
export const BODY_LIMIT_BYTES = 100 * 1024;

export interface GraphqlRouteDeps {
  config: Pick<Config, 'api' | 'trustProxy'>;
  db: Db;
  clock: Clock;
  logger: Logger;
  recorder: LastUsedRecorder;
  graphql: GraphqlHandler;
  /** OB-02: where the token checks are counted (createApiApp always sets it). */
  observability?: Observability | undefined;
}

/**
 * `/graphql`, in order: credentials syntax (no I/O) → declared body size → token check (one
 * indexed read) → body → the fast path for a POST of a cached, valid document (fast-path/fast-path.ts),
 * else graphql-http (request params, cached parse and validation, the token's scopes (SC-06),
 * execution). Every operation needs a token, so nothing is parsed for an anonymous caller.
 * Its 401s and 403s point at `/graphql`'s RFC 9728 document (RS-14, RS-15).
 */
export function graphqlRoute(deps: GraphqlRouteDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const challenges = challengesOf({ metadataUrl: resourceMetadataUrl(deps.config.api.url, '/graphql') });
  const bearer = { ...deps, tokenChecks: deps.observability && tokenCheckCountersOf(deps.observability.metrics) };
  const useToken = tokenUse(deps);
  return async (req, res) => {
    // D-6: the header's syntax is judged first, with no I/O: `Bearer` without a token is 400 (GQ-02),
    // and the scheme is Bearer in any case (GQ-05).
    const credentials = parseBearerAuthorization(req);
    if (declaresTooLargeBody(req)) return sendTooLarge(req, res);

    const outcome = await authenticateBearer(bearer, credentials, challenges);
    if (!outcome.ok) return sendRejection(req, res, outcome.rejection);
    useToken(req, res, outcome.principal);

    const context: RouteContext = { principal: outcome.principal, challenges };
    let body: string | null = null;
    if (req.method === 'POST') {
      const buffered = bufferedBody(req, BODY_LIMIT_BYTES);
      const read = buffered === NOT_BUFFERED ? await readBody(req, BODY_LIMIT_BYTES) : buffered;
      if (read === undefined) return; // the client went away
      if (read === TOO_LARGE) return sendTooLarge(req, res);
      body = read;

      const fast = deps.graphql.fast(req.headers, read, context);
      if (fast !== undefined) {
        const [fastBody, status, contentType, headers] = fast instanceof Promise ? await fast : fast;
        return sendBody(res, status, fastBody, contentType, headers);
      }
    }

    const [resultBody, init] = await deps.graphql({
      method: req.method ?? 'GET',
      url: req.url ?? '/graphql',
      headers: req.headers,
      body,
      raw: req,
      context,
    });
    if (resultBody === null) {
      // graphql-http answers 405 (a mutation over GET is never run: GQ-19), 406 (GQ-20) and 415 (GQ-18)
      // without a body; give them the same JSON error shape.
      const code = init.statusText.toUpperCase().replaceAll(' ', '_');
      return sendJsonError(res, init.status, init.statusText, code, init.headers);
    }
    sendBody(res, init.status, resultBody, init.headers?.['content-type'] ?? JSON_CONTENT_TYPE, init.headers);
  };
}

function declaresTooLargeBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > BODY_LIMIT_BYTES;
}

/**
 * The API's own errors, answered before GraphQL runs, in the media type the request asked for:
 * `application/graphql-response+json` when its Accept prefers it (GraphQL over HTTP §7.2, which
 * is how Apollo Client 4 reads the `UNAUTHENTICATED` code of a 401), else `application/json` (CL-03).
 */
function errorContentType(req: IncomingMessage): string {
  return responseMediaType(req.headers.accept) === GRAPHQL_RESPONSE
    ? RESPONSE_CONTENT_TYPE[GRAPHQL_RESPONSE]
    : JSON_CONTENT_TYPE;
}

function sendTooLarge(req: IncomingMessage, res: ServerResponse): void {
  // The rest of the body is not read; closing the connection stops the client from sending it.
  const message = `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`;
  sendJsonError(res, 413, message, 'PAYLOAD_TOO_LARGE', { connection: 'close' }, errorContentType(req));
}

/**
 * GQ-01: no credentials is 401 with a challenge without `error` (only `realm` and RS-14's
 * `resource_metadata`) and the documented `UNAUTHENTICATED` body.
 */
function sendRejection(req: IncomingMessage, res: ServerResponse, rejection: BearerRejection): void {
  sendJsonError(res, rejection.status, rejection.message, rejection.code, rejection.headers, errorContentType(req));
}
