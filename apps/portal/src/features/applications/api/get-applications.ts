import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApplicationJson } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A third-party application the user authorized, once however many times they signed in to it. */
export type AuthorizedApplication = ApplicationJson;

/** GET /bff/api/applications. */
export function getApplications(signal?: AbortSignal): Promise<AuthorizedApplication[]> {
  return accountRequest('GET', '/applications', { signal });
}

export function applicationsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.applications,
    queryFn: ({ signal }) => getApplications(signal),
  });
}

export function useApplications() {
  return useQuery(applicationsQueryOptions());
}
