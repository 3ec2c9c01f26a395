import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'graphql-http';
import type { ApiContext } from './api-context.ts';
import type { ExecutionResult, GraphQLError } from './graphql-js.ts';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/**
 * GraphQL over HTTP (pre-2026 draft), application/graphql-response+json: "If the GraphQL
 * response does not contain the {data} entry then the server MUST reply with a 4xx or 5xx
 * status code". A variable that fails coercion gives such a result, yet graphql-http 1.23.1
 * answers it 200 (its audit 86EE misses it: that query already fails validation on an unused
 * variable). For that media type, answer 400 like a validation failure (GQ-28). With
 * application/json the spec keeps 200, as graphql-http does.
 */
export function answerCoercionFailure(
  formatError: (error: GraphQLError) => GraphQLError | Error,
): (req: Request<IncomingMessage, ApiContext>, args: unknown, result: ExecutionResult) => Response | undefined {
  return (req, _args, result) => {
    if (result.data !== undefined || !result.errors || !negotiatesGraphqlResponse(req.raw.headers.accept)) return undefined;
    return [
      JSON.stringify({ errors: result.errors.map(formatError) }),
      { status: 400, statusText: 'Bad Request', headers: { 'content-type': `${GRAPHQL_RESPONSE}; charset=utf-8` } },
    ];
  };
}

/** graphql-http's negotiation: the first acceptable entry of Accept decides the response type. */
function negotiatesGraphqlResponse(accept: string | undefined): boolean {
  for (const entry of (accept ?? '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [type, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (type === GRAPHQL_RESPONSE && charset === 'charset=utf-8') return true;
    if ((type === 'application/json' || type === 'application/*' || type === '*/*') && (charset === 'charset=utf-8' || charset === 'charset=utf8')) {
      return false;
    }
  }
  return false;
}
