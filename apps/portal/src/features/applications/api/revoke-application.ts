import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { applicationsQueryOptions, type AuthorizedApplication } from './get-applications.ts';

/** POST /bff/api/applications/:client_id/revoke: every grant and token of the application for this user. */
export function revokeApplication(clientId: string): Promise<AuthorizedApplication> {
  return accountRequest('POST', '/applications/:id/revoke', { id: clientId });
}

export function useRevokeApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApplication,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: applicationsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
      ]),
    meta: { inlineErrors: true },
  });
}
