import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RollOverlap, RollTokenRequest } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import type { CreatedToken } from './create-token.ts';
import { tokensQueryOptions, type AccessToken } from './get-tokens.ts';

export interface TokenRoll {
  id: string;
  /** TR-03: how long the old value keeps working. */
  overlap: RollOverlap;
}

/**
 * POST /bff/api/tokens/:id/roll (TR-03, TR-12): a new value with the token's name, description,
 * scopes and lifetime; besides creation, the only response that carries a token's value.
 */
export function rollToken({ id, overlap }: TokenRoll): Promise<CreatedToken> {
  const json: RollTokenRequest = { overlap };
  return accountRequest('POST', '/tokens/:id/roll', { id, json });
}

/**
 * Rolls a personal access token. As with creation, the new value goes straight to `onRolled`
 * (the dialog's state) and the mutation keeps only the summary, out of the query client.
 */
export function useRollToken({ onRolled }: { onRolled: (rolled: CreatedToken, roll: TokenRoll) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (roll: TokenRoll): Promise<AccessToken> => {
      const rolled = await rollToken(roll);
      onRolled(rolled, roll);
      return rolled.token;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
