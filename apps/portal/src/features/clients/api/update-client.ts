import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IdTokenSignedResponseAlg, UpdateClientRequest } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { clientsQueryOptions, type OAuthClient } from './get-clients.ts';

export interface ClientEdit {
  name: string;
  redirectUris: string[];
  /** Empty clears the optional ones. */
  postLogoutRedirectUri: string;
  description: string;
  homepage: string;
  privacyPolicy: string;
  terms: string;
  /** OI-20: left out, unchanged. */
  idTokenAlg?: IdTokenSignedResponseAlg;
  /** DV-25: opts in to or out of the device flow; left out, unchanged. */
  deviceGrant?: boolean;
}

/** PATCH /bff/api/clients/:id: effective on the application's next sign-in. */
export function updateClient(id: string, edit: ClientEdit): Promise<OAuthClient> {
  const json: UpdateClientRequest = {
    name: edit.name,
    redirect_uris: edit.redirectUris,
    post_logout_redirect_uri: edit.postLogoutRedirectUri || null,
    description: edit.description || null,
    client_uri: edit.homepage || null,
    policy_uri: edit.privacyPolicy || null,
    tos_uri: edit.terms || null,
    ...(edit.idTokenAlg ? { id_token_signed_response_alg: edit.idTokenAlg } : {}),
    ...(edit.deviceGrant !== undefined && { device_grant: edit.deviceGrant }),
  };
  return accountRequest('PATCH', '/clients/:id', { id, json });
}

export function useUpdateClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: ClientEdit) => updateClient(id, edit),
    // The list's key prefixes the detail's: both are fetched again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
