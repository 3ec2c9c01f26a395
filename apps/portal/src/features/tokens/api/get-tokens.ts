import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TokenJson } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A token as the account endpoints present it: never its value, only its last 4 characters (packages/contracts). */
export type AccessToken = TokenJson;

/** GET /bff/api/tokens: the user's personal tokens and the live tokens of apps they authorized. */
export function getTokens(signal?: AbortSignal): Promise<AccessToken[]> {
  return accountRequest('GET', '/tokens', { signal });
}

export function tokensQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.tokens,
    queryFn: ({ signal }) => getTokens(signal),
  });
}

const personalOnly = (tokens: AccessToken[]): AccessToken[] => tokens.filter((token) => token.kind === 'pat');

/**
 * The personal access tokens. Applications' tokens are shown once per application
 * (features/applications), not once per sign-in in this list.
 */
export function usePersonalTokens() {
  return useQuery({ ...tokensQueryOptions(), select: personalOnly });
}
