import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { tokenJson } from '@latchkey/contracts';
import { apiRequest } from '../../../lib/api-client.ts';
import { tokensQueryOptions, type AccessToken } from './get-tokens.ts';

/** POST /bff/api/tokens/:id/revoke: refused by the API from the next request on. */
export function revokeToken(id: string): Promise<AccessToken> {
  return apiRequest(bff.revokeToken(id), tokenJson, { method: 'POST' });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
