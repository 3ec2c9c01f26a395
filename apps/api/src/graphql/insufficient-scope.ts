import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'graphql-http';
import { coversScopes, formatScope, type Scope } from '@latchkey/contracts';
import type { EndpointChallenges } from '../bearer/challenge.ts';
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

/**
 * What the route hands graphql-http and the fast path: the operation's context, and the
 * challenges of the endpoint it was called at, so that a 403 points at that endpoint's
 * metadata (RS-15). Both are made before the request: this is one more field, no work.
 */
export type RouteContext = ApiContext & { readonly challenges: EndpointChallenges };

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
 * SC-06, RS-15 (RFC 6750 §3.1, RFC 9728 §5.1): 403 with `error="insufficient_scope"`, the
 * missing scopes and the endpoint's `resource_metadata` in the challenge (what a client steps up
 * with), and a GraphQL error whose extensions name the scopes, in the media type negotiated.
 * The fast path and graphql-http's route both answer through here, so their bytes agree.
 */
export function scopeRefusalAnswer(
  refusal: ScopeRefusal,
  mediaType: ResponseMediaType,
  challenges: EndpointChallenges,
): readonly [body: string, status: 403, contentType: string, headers: Record<string, string>] {
  const contentType = RESPONSE_CONTENT_TYPE[mediaType];
  return [
    JSON.stringify({ errors: refusal.errors }),
    403,
    contentType,
    { 'content-type': contentType, 'www-authenticate': challenges.insufficientScope(refusal.missing) },
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
export function answerScopeRefusal(req: Request<IncomingMessage, RouteContext>, result: unknown): Response | undefined {
  if (!(result instanceof ScopeRefusal)) return undefined;
  // graphql-http negotiated the media type before it got this far, so there is one.
  const mediaType = responseMediaType(req.raw.headers.accept)!;
  const [body, status, , headers] = scopeRefusalAnswer(result, mediaType, req.context.challenges);
  return [body, { status, statusText: 'Forbidden', headers }];
}
