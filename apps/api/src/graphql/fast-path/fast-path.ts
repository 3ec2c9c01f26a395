import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Scope } from '@latchkey/contracts';
import { coercionFailureBody } from '../coercion-failure.ts';
import type { DocumentCache } from '../document-cache.ts';
import { ExecutionPlan } from './execution-plan.ts';
import { missingScopes, ScopeRefusal, scopeRefusalAnswer, type RouteContext } from '../insufficient-scope.ts';
import {
  execute,
  getOperationAST,
  GraphQLError,
  isScalarType,
  isSpecifiedScalarType,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from '../graphql-js.ts';
import { isJsonBodyType, RESPONSE_CONTENT_TYPE, responseMediaType, type ResponseMediaType } from '../media-types.ts';

/** A complete answer: body, status, Content-Type, and the headers of a 403 (SC-06). */
export type GraphqlAnswer = readonly [
  body: string,
  status: 200 | 400 | 403,
  contentType: string,
  headers?: OutgoingHttpHeaders,
];

/**
 * Answers the common request itself, or returns undefined for graphql-http's route to answer.
 * Undefined is returned before anything runs, so the request is never executed twice.
 */
export type FastPath = (
  headers: IncomingHttpHeaders,
  body: string,
  context: RouteContext,
) => GraphqlAnswer | Promise<GraphqlAnswer> | undefined;

export interface FastPathOptions {
  schema: GraphQLSchema;
  documents: DocumentCache;
  formatError: (error: GraphQLError) => GraphQLError | Error;
  /** The scopes an operation needs (field-scopes.ts), shared with graphql-http's route. */
  scopesOf: (document: DocumentNode, operation: OperationDefinitionNode) => readonly Scope[];
}

/** What is worked out once per operation of a cached document. */
interface Prepared {
  /** Null: not plain enough for a plan (execution-plan.ts). */
  plan: ExecutionPlan | null;
  scopes: readonly Scope[];
}

/**
 * The request nearly every call is: POST, a JSON body naming a document that is already parsed
 * and valid, an Accept graphql-http serves. Measured in-process for the benchmark's
 * `{ profile { name } }`: graphql-http's handler takes about 5 µs of CPU (graphql-js's
 * `execute` about 3 of them; the rest is re-negotiating Accept and Content-Type with regular
 * expressions, a dozen awaited hooks and argument objects built anew), this path about 1 µs.
 * It takes graphql-http's steps in graphql-http's order and answers byte for byte what
 * graphql-http answers (fast-path.test.ts compares the two); an operation that needs a scope
 * the token lacks is refused 403 as graphql-http's route refuses it (SC-06), a plain query runs
 * from its cached execution plan (execution-plan.ts), any other operation through graphql-js's
 * `execute`. Anything else (GET, another media type, JSON that is not a well-formed request,
 * a document not yet in the cache or invalid, an operation that cannot be picked, a
 * subscription) is left to graphql-http, so its status codes and messages stay the only ones
 * (D-7).
 */
export function createFastPath({ schema, documents, formatError, scopesOf }: FastPathOptions): FastPath {
  const leavesArePlain = onlySpecifiedScalars(schema);
  /** By operation of a cached document. */
  const prepared = new WeakMap<OperationDefinitionNode, Prepared>();
  return (headers, body, context) => {
    const mediaType = responseMediaType(headers.accept);
    if (mediaType === null) return undefined;
    const contentType = headers['content-type'];
    if (contentType === undefined || !isJsonBodyType(contentType)) return undefined;

    const params = requestParams(body);
    if (params === undefined) return undefined;
    const cached = documents.lookup(params.query);
    if (cached === undefined || cached.errors.length > 0) return undefined;
    const operation = getOperationAST(cached.document, params.operationName);
    if (operation == null || operation.operation === 'subscription') return undefined;

    let ready = prepared.get(operation);
    if (ready === undefined) {
      ready = {
        plan: ExecutionPlan.of(schema, cached.document, operation) ?? null,
        scopes: scopesOf(cached.document, operation),
      };
      prepared.set(operation, ready);
    }
    // SC-06: where graphql-http's route checks them, after validation and before execution.
    const missing = missingScopes(context.principal.scopes, ready.scopes);
    if (missing.length > 0) return scopeRefusalAnswer(new ScopeRefusal(missing), mediaType, context.challenges);
    const { plan } = ready;
    const result =
      plan?.run(context) ??
      execute({
        schema,
        document: cached.document,
        rootValue: undefined,
        contextValue: context,
        variableValues: params.variables,
        operationName: params.operationName,
      });
    return isPromiseLike(result)
      ? Promise.resolve(result).then((settled) => answer(settled, mediaType, formatError, leavesArePlain))
      : answer(result, mediaType, formatError, leavesArePlain);
  };
}

interface RequestParams {
  query: string;
  variables: Record<string, unknown> | null | undefined;
  operationName: string | null | undefined;
}

/** graphql-http's parseRequestParams for a JSON body, or undefined where it would answer an error. */
function requestParams(body: string): RequestParams | undefined {
  if (body === '') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { query, variables, operationName, extensions } = data as Record<string, unknown>;
  if (typeof query !== 'string') return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (extensions != null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  return {
    query,
    variables: variables as Record<string, unknown> | null | undefined,
    operationName: operationName as string | null | undefined,
  };
}

/** graphql-http's `makeResponse` for an execution result, after the API's coercion-failure rule. */
function answer(
  result: ExecutionResult,
  mediaType: ResponseMediaType,
  formatError: (error: GraphQLError) => GraphQLError | Error,
  leavesArePlain: boolean,
): GraphqlAnswer {
  const failed = coercionFailureBody(result, mediaType, formatError);
  if (failed !== undefined) return [failed, 400, RESPONSE_CONTENT_TYPE[mediaType]];
  if (!result.errors) {
    // Without errors, an Error can only be in `data` as a custom scalar's serialized value. With
    // none in the schema the replacer cannot change a byte, and JSON.stringify runs faster without it.
    return [
      leavesArePlain ? JSON.stringify(result) : JSON.stringify(result, jsonErrorReplacer),
      200,
      RESPONSE_CONTENT_TYPE[mediaType],
    ];
  }
  const body = JSON.stringify({ ...result, errors: result.errors.map(formatError) }, jsonErrorReplacer);
  return [body, 200, RESPONSE_CONTENT_TYPE[mediaType]];
}

/** Built-in scalars serialize to strings, numbers and booleans, enums to their names. */
function onlySpecifiedScalars(schema: GraphQLSchema): boolean {
  return Object.values(schema.getTypeMap()).every((type) => !isScalarType(type) || isSpecifiedScalarType(type));
}

/** graphql-http's replacer: an Error that is not a GraphQLError shows its message only (no stack). */
function jsonErrorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error && !(value instanceof GraphQLError)) return { message: value.message };
  return value;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null)?.then === 'function';
}
