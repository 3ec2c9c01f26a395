import { GraphQLError } from './graphql-js.ts';
import type { Logger } from '@latchkey/logging';

/**
 * GQ-29: an error thrown by a resolver that is not a GraphQLError is a bug or a failed
 * dependency. The client sees a generic message with no stack, SQL or path details; the log
 * gets the original. Request errors (bad JSON, missing query) and GraphQL errors (syntax,
 * validation) are the client's own mistakes and pass through.
 */
export function createFormatError(logger: Logger): (error: Readonly<GraphQLError | Error>) => GraphQLError | Error {
  return (error) => {
    if (!(error instanceof GraphQLError)) return error as Error;
    const original = error.originalError;
    if (original === undefined || original instanceof GraphQLError) return error;
    logger.error({ err: original, path: error.path }, 'resolver failed');
    return new GraphQLError('Internal server error', {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  };
}

const SUGGESTION = / ?Did you mean .*\?$/;

/**
 * GQ-17: outside development, validation messages do not suggest field, type or argument
 * names ("Did you mean ...?"): they would let a caller map the schema with introspection off.
 * graphql 16 has no switch for it (graphql 17's `hideSuggestions`), so the sentence is cut.
 */
export function withoutSuggestions(error: GraphQLError): GraphQLError {
  if (!SUGGESTION.test(error.message)) return error;
  return new GraphQLError(error.message.replace(SUGGESTION, ''), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}
