import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ExpirationRequest } from '../expiration/expiration.ts';
import { tokensQueryOptions, type AccessToken } from './get-tokens.ts';

export interface NewToken {
  name: string;
  expiration: ExpirationRequest;
}

export interface CreatedToken {
  token: AccessToken;
  value: string;
}

/** POST /bff/api/tokens: the only response that ever carries the token's value. */
export function createToken(input: NewToken): Promise<CreatedToken> {
  return apiRequest<CreatedToken>(bff.tokens, { method: 'POST', json: { name: input.name, ...input.expiration } });
}

/**
 * Generates a personal access token. The value goes straight to `onCreated` (the dialog's
 * state); the mutation keeps only the summary, so the value never enters the query client.
 */
export function useCreateToken({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewToken): Promise<AccessToken> => {
      const created = await createToken(input);
      onCreated(created);
      return created.token;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
