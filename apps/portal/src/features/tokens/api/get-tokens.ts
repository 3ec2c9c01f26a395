import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** A token as the account endpoints present it: never its value, only its last 4 characters. */
export interface AccessToken {
  id: string;
  name: string;
  kind: 'pat' | 'oauth';
  last4: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  status: 'active' | 'expired' | 'revoked';
}

/** GET /bff/api/tokens: the user's personal tokens and the live tokens of apps they authorized. */
export function getTokens(signal?: AbortSignal): Promise<AccessToken[]> {
  return apiRequest<AccessToken[]>(bff.tokens, { signal });
}

export function tokensQueryOptions() {
  return queryOptions({
    queryKey: ['tokens'],
    queryFn: ({ signal }) => getTokens(signal),
  });
}

export function useTokens() {
  return useQuery(tokensQueryOptions());
}
