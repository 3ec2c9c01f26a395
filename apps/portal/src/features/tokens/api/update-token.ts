import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateTokenRequest } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { tokensQueryOptions, type AccessToken } from './get-tokens.ts';

export interface TokenEdit {
  name: string;
  /** Blank clears it. */
  description: string;
}

/** PATCH /bff/api/tokens/:id (TR-02, TR-13): the name and description; value, scopes and expiry stay. */
export function updateToken(id: string, edit: TokenEdit): Promise<AccessToken> {
  const json: UpdateTokenRequest = { name: edit.name, description: edit.description || null };
  return accountRequest('PATCH', '/tokens/:id', { id, json });
}

export function useUpdateToken(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: TokenEdit) => updateToken(id, edit),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
