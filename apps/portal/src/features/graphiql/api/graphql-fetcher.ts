import type { Fetcher, FetcherParams } from '@graphiql/toolkit';
import { bff } from '../../../config/paths.ts';
import { bffFetch } from '../../../lib/api-client.ts';

/**
 * GraphiQL's fetcher: POST /bff/graphql, same-origin with the session cookie. The BFF adds
 * the session's access token on its side, so no token is ever in the browser. GraphQL errors
 * come back as JSON with a 4xx and are shown as the response; a 401 sends the user to sign in.
 */
export async function fetchGraphQL(params: FetcherParams): Promise<unknown> {
  const response = await bffFetch(bff.graphql, { method: 'POST', json: params });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return response.json();
  return { errors: [{ message: `The GraphQL endpoint answered ${response.status} without a GraphQL response.` }] };
}

export const graphqlFetcher: Fetcher = (params) => fetchGraphQL(params);
