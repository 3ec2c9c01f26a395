import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { SecurityEventType, SecurityLogJson } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * AU-08: GET /bff/api/security-log, a page of the user's events, newest first, and the cursor
 * of the next (`next`, null on the last). Only the parameters given are sent: the first page of
 * every event is the bare URL the BFF preloads with the page's HTML.
 */
export function getSecurityLog(
  { type, before }: { type?: SecurityEventType | undefined; before?: string | undefined },
  signal?: AbortSignal,
): Promise<SecurityLogJson> {
  return accountRequest('GET', '/security-log', { signal, query: { type, before } });
}

/**
 * The log a page at a time: each "Load more" fetches the page before the last one's `next`.
 * A log keeps growing, so what is on screen goes stale after a few seconds (enough for the
 * route's prefetch and the page's first read to be one request) and is read again on return.
 */
export function securityLogQueryOptions(type?: SecurityEventType) {
  return infiniteQueryOptions({
    queryKey: queryKeys.securityLog(type),
    queryFn: ({ pageParam, signal }) => getSecurityLog({ type, before: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: 5_000,
  });
}

export function useSecurityLog(type?: SecurityEventType) {
  return useInfiniteQuery(securityLogQueryOptions(type));
}
