import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountRoute, accountUrl, BFF_ACCOUNT_BASE } from '@latchkey/contracts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientSecretsQueryOptions, type ClientSecret } from './get-client-secrets.ts';

const DELETE_SECRET = '/clients/:id/secrets/:secretId/delete';

/**
 * POST /bff/api/clients/:id/secrets/:secretId/delete (SR-04): the secret stops working at once;
 * the answer is the secrets left. accountUrl fills only `:id`, so the secret's id is put in here.
 */
export function deleteClientSecret(clientId: string, secretId: string): Promise<ClientSecret[]> {
  const url = accountUrl(BFF_ACCOUNT_BASE, DELETE_SECRET, clientId).replace(':secretId', encodeURIComponent(secretId));
  return apiRequest(url, accountRoute(DELETE_SECRET).answers.POST, { method: 'POST' });
}

export function useDeleteClientSecret(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secretId: string) => deleteClientSecret(clientId, secretId),
    onSuccess: (secrets) => queryClient.setQueryData(clientSecretsQueryOptions(clientId).queryKey, secrets),
    meta: { inlineErrors: true },
  });
}
