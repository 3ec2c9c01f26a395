import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountRequest } from '../../../lib/api-client.ts';
import { tokensQueryOptions, type AccessToken } from './get-tokens.ts';

/** POST /bff/api/tokens/:id/revoke: refused by the API from the next request on. */
export function revokeToken(id: string): Promise<AccessToken> {
  return accountRequest('POST', '/tokens/:id/revoke', { id });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
