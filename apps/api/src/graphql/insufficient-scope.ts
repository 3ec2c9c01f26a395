import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'graphql-http';
import { coversScopes, formatScope, type Scope } from '@latchkey/contracts';
import { insufficientScopeChallenge } from '../bearer/authenticate-bearer.ts';
import type { ApiContext } from './api-context.ts';
import {
  execute,
  getOperationAST,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type OperationDefinitionNode,
} from './graphql-js.ts';
import { RESPONSE_CONTENT_TYPE, responseMediaType, type ResponseMediaType } from './media-types.ts';

const NONE: readonly Scope[] = Object.freeze([]);

/** The scopes of `required` (registry order) that `held` lacks; empty when the token may run the operation. */
export function missingScopes(held: readonly Scope[], required: readonly Scope[]): readonly Scope[] {
  return coversScopes(held, required) ? NONE : required.filter((scope) => !held.includes(scope));
}

/**
 * What stands in for the execution of an operation the token's scopes do not cover: nothing
 * ran, so there is no `data` and nothing is partly answered (SC-06).
 */
export class ScopeRefusal implements ExecutionResult {
  readonly errors: readonly GraphQLError[];
  readonly missing: readonly Scope[];

  constructor(missing: readonly Scope[]) {
    this.missing = missing;
    const names = formatScope(missing);
    const message = `The access token lacks the ${missing.length === 1 ? 'scope' : 'scopes'} this query needs: ${names}.`;
    this.errors = [new GraphQLError(message, { extensions: { code: 'INSUFFICIENT_SCOPE', scopes: missing } })];
  }
}

/**
 * SC-06 (RFC 6750 §3.1): 403 with `error="insufficient_scope"` and the missing scopes in the
 * challenge, and a GraphQL error whose extensions name them, in the media type negotiated.
 * The fast path and graphql-http's route both answer through here, so their bytes agree.
 */
export function scopeRefusalAnswer(
  refusal: ScopeRefusal,
  mediaType: ResponseMediaType,
): readonly [body: string, status: 403, contentType: string, headers: Record<string, string>] {
  const contentType = RESPONSE_CONTENT_TYPE[mediaType];
  return [
    JSON.stringify({ errors: refusal.errors }),
    403,
    contentType,
    { 'content-type': contentType, 'www-authenticate': insufficientScopeChallenge(refusal.missing) },
  ];
}

/**
 * graphql-http's `execute` hook: after parsing, validation and the choice of operation (so a bad
 * query keeps its 400), and before anything runs, the token's scopes must cover the operation's.
 */
export function executeWithinScopes(
  scopesOf: (document: DocumentNode, operation: OperationDefinitionNode) => readonly Scope[],
): (args: ExecutionArgs) => ReturnType<typeof execute> {
  return (args) => {
    // graphql-http calls this only once it has found the operation.
    const operation = getOperationAST(args.document, args.operationName)!;
    const missing = missingScopes((args.contextValue as ApiContext).principal.scopes, scopesOf(args.document, operation));
    return missing.length === 0 ? execute(args) : new ScopeRefusal(missing);
  };
}

/** graphql-http's `onOperation` hook: answers a ScopeRefusal 403. */
export function answerScopeRefusal(req: Request<IncomingMessage, ApiContext>, result: unknown): Response | undefined {
  if (!(result instanceof ScopeRefusal)) return undefined;
  // graphql-http negotiated the media type before it got this far, so there is one.
  const [body, status, , headers] = scopeRefusalAnswer(result, responseMediaType(req.raw.headers.accept)!);
  return [body, { status, statusText: 'Forbidden', headers }];
}
