import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountRequest } from '../../../lib/api-client.ts';
import { clientsQueryOptions, type OAuthClient } from './get-clients.ts';

/** POST /bff/api/clients/:id/revoke: every token the client issued stops working at once. */
export function revokeClient(id: string): Promise<OAuthClient> {
  return accountRequest('POST', '/clients/:id/revoke', { id });
}

export function useRevokeClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
