import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedTokenJson, CreateTokenRequest, Scope } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import type { ExpirationRequest } from '../expiration/expiration.ts';
import { tokensQueryOptions, type AccessToken } from './get-tokens.ts';

export interface NewToken {
  name: string;
  /** TR-01: what the token is for; blank sends none. */
  description: string;
  expiration: ExpirationRequest;
  /** SC-07: what the token may do; the dialog starts with every third-party scope ticked. */
  scopes: Scope[];
}

export type CreatedToken = CreatedTokenJson;

/** POST /bff/api/tokens: the only response that ever carries the token's value. */
export function createToken(input: NewToken): Promise<CreatedToken> {
  const json: CreateTokenRequest = {
    name: input.name,
    ...(input.description && { description: input.description }),
    ...input.expiration,
    scopes: input.scopes,
  };
  return accountRequest('POST', '/tokens', { json });
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
