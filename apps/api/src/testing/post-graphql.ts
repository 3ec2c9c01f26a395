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

/** RFC 6750 §3 challenge of a request without credentials. */
export const BARE_CHALLENGE = 'Bearer realm="api"';
export const INVALID_TOKEN_CHALLENGE = 'Bearer realm="api", error="invalid_token"';
export const INVALID_REQUEST_CHALLENGE = 'Bearer realm="api", error="invalid_request"';
