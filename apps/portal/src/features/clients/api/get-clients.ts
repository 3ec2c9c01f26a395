import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientJson } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** An OAuth client as the account endpoints present it (packages/contracts). */
export type OAuthClient = ClientJson;

/** GET /bff/api/clients: the user's clients, newest first, revoked ones included. */
export function getClients(signal?: AbortSignal): Promise<OAuthClient[]> {
  return accountRequest('GET', '/clients', { signal });
}

export function clientsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.clients,
    queryFn: ({ signal }) => getClients(signal),
  });
}

export function useClients() {
  return useQuery(clientsQueryOptions());
}
