import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'graphql-http';
import type { ApiContext } from './api-context.ts';
import type { ExecutionResult, GraphQLError } from './graphql-js.ts';
import { GRAPHQL_RESPONSE, RESPONSE_CONTENT_TYPE, responseMediaType, type ResponseMediaType } from './media-types.ts';

/**
 * GraphQL over HTTP (pre-2026 draft), application/graphql-response+json: "If the GraphQL
 * response does not contain the {data} entry then the server MUST reply with a 4xx or 5xx
 * status code". A variable that fails coercion gives such a result, yet graphql-http 1.23.1
 * answers it 200 (its audit 86EE misses it: that query already fails validation on an unused
 * variable). For that media type, answer 400 like a validation failure (GQ-28). With
 * application/json the spec keeps 200, as graphql-http does.
 */
export function coercionFailureBody(
  result: ExecutionResult,
  mediaType: ResponseMediaType | null,
  formatError: (error: GraphQLError) => GraphQLError | Error,
): string | undefined {
  if (result.data !== undefined || !result.errors || mediaType !== GRAPHQL_RESPONSE) return undefined;
  return JSON.stringify({ errors: result.errors.map(formatError) });
}

/** The same rule as graphql-http's `onOperation` hook. */
export function answerCoercionFailure(
  formatError: (error: GraphQLError) => GraphQLError | Error,
): (req: Request<IncomingMessage, ApiContext>, args: unknown, result: ExecutionResult) => Response | undefined {
  return (req, _args, result) => {
    const body = coercionFailureBody(result, responseMediaType(req.raw.headers.accept), formatError);
    if (body === undefined) return undefined;
    return [
      body,
      { status: 400, statusText: 'Bad Request', headers: { 'content-type': RESPONSE_CONTENT_TYPE[GRAPHQL_RESPONSE] } },
    ];
  };
}
