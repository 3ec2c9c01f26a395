import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { sessionJson, type MeJson } from '@latchkey/contracts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type SessionUser = MeJson;

/** GET /bff/session: the signed-in user; a 401 sends the browser to sign in. */
export async function getSession(signal?: AbortSignal): Promise<SessionUser> {
  const body = await apiRequest(bff.session, sessionJson, { signal });
  return body.user;
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.session,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 5 * 60_000,
  });
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}
