import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountRequest } from '../../../lib/api-client.ts';
import type { OAuthClient } from './get-clients.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /bff/api/clients/:id: one of the user's clients; anyone else's is 404. */
export function getClient(id: string, signal?: AbortSignal): Promise<OAuthClient> {
  return accountRequest('GET', '/clients/:id', { id, signal });
}

/** Below the list's key, so whatever refreshes the list refreshes the detail too. */
export function clientQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.client(id),
    queryFn: ({ signal }) => getClient(id, signal),
  });
}

export function useClient(id: string) {
  return useQuery(clientQueryOptions(id));
}
