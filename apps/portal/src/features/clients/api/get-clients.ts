import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** An OAuth client as the account endpoints present it (apps/auth/src/account/clients/client.presenter.ts). */
export interface OAuthClient {
  id: string;
  client_id: string;
  name: string;
  redirect_uri: string;
  /** Where the end-session endpoint may send people back after sign-out; null if none. */
  post_logout_redirect_uri: string | null;
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
