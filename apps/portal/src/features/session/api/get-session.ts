import { queryOptions, useQuery } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { sessionJson, type MeJson, type SessionJson } from '@latchkey/contracts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type SessionUser = MeJson;

/** GET /bff/session: the signed-in user and the API's MCP URL; a 401 sends the browser to sign in. */
export async function getSession(signal?: AbortSignal): Promise<SessionJson> {
  return apiRequest(bff.session, sessionJson, { signal });
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.session,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 5 * 60_000,
  });
}

const userOf = (session: SessionJson): SessionUser => session.user;
const mcpUrlOf = (session: SessionJson): string => session.mcpUrl;

/** The signed-in user. */
export function useSession() {
  return useQuery({ ...sessionQueryOptions(), select: userOf });
}

/** RS-22: the API's MCP endpoint (`{API_URL}/mcp`), which only the BFF knows. */
export function useMcpUrl() {
  return useQuery({ ...sessionQueryOptions(), select: mcpUrlOf });
}
