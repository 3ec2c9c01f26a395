import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** An OAuth client as the account endpoints present it (apps/auth/src/account/clients/client.presenter.ts). */
export interface OAuthClient {
  id: string;
  client_id: string;
  name: string;
  redirect_uri: string;
  created_at: string;
  status: 'active' | 'revoked';
  revoked_at: string | null;
}

/** GET /bff/api/clients: the user's clients, newest first, revoked ones included. */
export function getClients(signal?: AbortSignal): Promise<OAuthClient[]> {
  return apiRequest<OAuthClient[]>(bff.clients, { signal });
}

export function clientsQueryOptions() {
  return queryOptions({
    queryKey: ['clients'],
    queryFn: ({ signal }) => getClients(signal),
  });
}

export function useClients() {
  return useQuery(clientsQueryOptions());
}
