import type { IncomingMessage } from 'node:http';
import { createHandler, type Handler } from 'graphql-http';
import type { Logger } from '@latchkey/logging';
import type { ApiContext } from './api-context.ts';
import { answerCoercionFailure } from './coercion-failure.ts';
import { DocumentCache } from './document-cache.ts';
import { createFastPath, type FastPath } from './fast-path/fast-path.ts';
import { createRequiredScopes } from './field-scopes.ts';
import { createFormatError, withoutSuggestions } from './format-error.ts';
import { execute, getOperationAST, GraphQLError, type ExecutionResult, type GraphQLSchema } from './graphql-js.ts';
import {
  answerScopeRefusal,
  executeWithinScopes,
  missingScopes,
  ScopeRefusal,
  type RouteContext,
} from './insufficient-scope.ts';
import { LIMITS, validationRules } from './validation-rules.ts';

export interface GraphqlHandlerOptions {
  schema: GraphQLSchema;
  logger: Logger;
  introspection: boolean;
  /** Production hides "Did you mean" suggestions (GQ-17). */
  production: boolean;
}

/** graphql-http's handler, with the fast path for the common request beside it (fast-path/fast-path.ts). */
export type GraphqlHandler = Handler<IncomingMessage, RouteContext> & { fast: FastPath; run: RunQuery };

/** One GraphQL request with no HTTP around it (the MCP `graphql` tool's input). */
export interface QueryRequest {
  query: string;
  variables?: Record<string, unknown> | undefined;
  operationName?: string | undefined;
}

/**
 * RS-19: runs a query as `context.principal` through what `/graphql` runs it through: the same
 * document cache (parse limits, validation rules, GQ-17's wording), per-field scopes (SC-06: a
 * refusal runs nothing) and error masking (GQ-29). Anything but a query (a mutation, a
 * subscription) is refused before validation. Failures are results with `errors`, never thrown.
 */
export type RunQuery = (request: QueryRequest, context: ApiContext) => Promise<ExecutionResult>;

/**
 * graphql-http's spec handler (D-7: its status codes, its audit) with graphql-js 16, and a
 * cache of parsed and validated documents behind its `parse`/`validate` hooks. Measured
 * under bench/'s load: parsing and validating `{ profile { name } }` (specified rules plus
 * the limits) costs about 220 µs of CPU per request, so without the cache the API serves
 * about a quarter of the requests. Once a document is in the cache, graphql-http's own request
 * handling costs about as much again as executing it; `fast` answers that common request
 * without it, byte for byte as graphql-http would (fast-path/fast-path.ts).
 *
 * Status codes follow graphql-http 1.23, i.e. the GraphQL-over-HTTP draft before its 2026
 * changes: a request that is not well formed or fails validation or variable coercion is 400
 * with `application/graphql-response+json` (200 with `application/json`). The 2026 draft
 * makes these 422, and partial success 294; we stay on graphql-http's rules until it and its
 * audit move (D-7). So graphql-http answers 400 for a body that is not JSON (GQ-13), a raw newline
 * in the `query` string included (GQ-11; escaped, it parses: GQ-12), a misspelt `query` key or a
 * `query` or `variables` of the wrong type (GQ-14), a batch (GQ-15), a document that does not parse
 * (GQ-16) and several operations without `operationName` (GQ-27); NUL or lone surrogates in a query
 * end in one of these answers or a 200, never a 5xx (GQ-30).
 */
export function createGraphqlHandler(options: GraphqlHandlerOptions): GraphqlHandler {
  const rules = validationRules({ introspection: options.introspection });
  const documents = new DocumentCache({
    schema: options.schema,
    rules,
    maxTokens: LIMITS.maxTokens,
    maxEntries: 500,
    maxQueryLength: 8 * 1024,
    ...(options.production ? { mapError: withoutSuggestions } : {}),
  });
  const formatError = createFormatError(options.logger);
  const scopesOf = createRequiredScopes(options.schema);
  const coercionFailure = answerCoercionFailure(formatError);
  const handler = createHandler<IncomingMessage, RouteContext, ApiContext>({
    schema: options.schema,
    parse: documents.parse,
    validate: documents.validate,
    // A function replaces graphql-http's default of spreading specifiedRules into a new
    // array per request; the cache validates with `rules` anyway.
    validationRules: () => rules,
    context: (req) => req.context,
    // SC-06: scopes are checked after validation (a bad query is still 400) and before execution.
    execute: executeWithinScopes(scopesOf),
    onOperation: (req, args, result) => answerScopeRefusal(req, result) ?? coercionFailure(req, args, result),
    formatError,
  });
  const run: RunQuery = async (request, context) => {
    let document;
    try {
      document = documents.parse(request.query);
    } catch (err) {
      if (err instanceof GraphQLError) return { errors: [err] };
      throw err;
    }
    const operation = getOperationAST(document, request.operationName) ?? undefined;
    if (operation !== undefined && operation.operation !== 'query') {
      return { errors: [new GraphQLError(`Only queries run here; this is a ${operation.operation}.`)] };
    }
    const invalid = documents.validate(options.schema, document);
    if (invalid.length > 0) return { errors: invalid };
    if (operation === undefined) {
      const message = request.operationName
        ? `Unknown operation named "${request.operationName}".`
        : 'Must provide operation name if query contains multiple operations.';
      return { errors: [new GraphQLError(message)] };
    }
    const missing = missingScopes(context.principal.scopes, scopesOf(document, operation));
    if (missing.length > 0) return new ScopeRefusal(missing);
    const result = await execute({
      schema: options.schema,
      document,
      operationName: request.operationName,
      variableValues: request.variables,
      contextValue: context,
    });
    return result.errors ? { ...result, errors: result.errors.map((e) => formatError(e) as GraphQLError) } : result;
  };
  return Object.assign(handler, {
    fast: createFastPath({ schema: options.schema, documents, formatError, scopesOf }),
    run,
  });
}
