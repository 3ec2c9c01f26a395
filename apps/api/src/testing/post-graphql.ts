// One GraphQL-over-HTTP call as a client would make it, for the API's integration tests.
export interface GraphqlCall {
  token?: string;
  query?: string;
  variables?: unknown;
  /** A raw body instead of {query, variables}. */
  body?: string;
  headers?: Record<string, string>;
  path?: string;
  method?: string;
}

export interface GraphqlAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function postGraphql(apiUrl: string, call: GraphqlCall): Promise<GraphqlAnswer> {
  const method = call.method ?? 'POST';
  const response = await fetch(`${apiUrl}${call.path ?? '/graphql'}`, {
    method,
    headers: {
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(call.token !== undefined ? { authorization: `Bearer ${call.token}` } : {}),
      ...call.headers,
    },
    ...(method === 'GET' || method === 'HEAD'
      ? {}
      : { body: call.body ?? JSON.stringify({ query: call.query ?? '{ profile { name } }', variables: call.variables }) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

// The challenges a test expects, spelled out rather than built with the code under test.

/** RS-14: where /graphql's RFC 9728 document is, for an API_URL without a path. */
export function graphqlMetadataUrl(apiUrl: string): string {
  return `${apiUrl}/.well-known/oauth-protected-resource/graphql`;
}

/** RFC 6750 §3.1, RS-14: the challenge of a request without credentials: no `error`. */
export function bareChallenge(apiUrl: string): string {
  return `Bearer realm="api", resource_metadata="${graphqlMetadataUrl(apiUrl)}"`;
}

/** The description of a token that is unknown, malformed or revoked. */
export const TOKEN_INVALID = 'The access token is invalid.';

/** RS-14: a refused token's challenge. */
export function invalidTokenChallenge(apiUrl: string, description: string = TOKEN_INVALID): string {
  return `Bearer realm="api", error="invalid_token", error_description="${description}", resource_metadata="${graphqlMetadataUrl(apiUrl)}"`;
}

/** RS-14: a malformed Authorization header's challenge (400). */
export function invalidRequestChallenge(apiUrl: string, description: string): string {
  return `Bearer realm="api", error="invalid_request", error_description="${description}", resource_metadata="${graphqlMetadataUrl(apiUrl)}"`;
}

/** RS-15: the 403 of a token without `missing`. */
export function insufficientScopeChallenge(apiUrl: string, missing: string): string {
  return `Bearer realm="api", error="insufficient_scope", scope="${missing}", resource_metadata="${graphqlMetadataUrl(apiUrl)}"`;
}
