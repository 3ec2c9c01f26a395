import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientSecretJson } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** One of a confidential client's secrets as listed (SR-05): its last four characters, never the secret. */
export type ClientSecret = ClientSecretJson;

/** GET /bff/api/clients/:id/secrets: the client's live secrets, oldest first. */
export function getClientSecrets(id: string, signal?: AbortSignal): Promise<ClientSecret[]> {
  return accountRequest('GET', '/clients/:id/secrets', { id, signal });
}

/** Below the client's key: revoking or editing the client refreshes its secrets too. */
export function clientSecretsQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.clientSecrets(id),
    queryFn: ({ signal }) => getClientSecrets(id, signal),
  });
}

export function useClientSecrets(id: string) {
  return useQuery(clientSecretsQueryOptions(id));
}
