import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedClientSecretJson, CreateClientSecretRequest, SecretExpiry } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { clientSecretsQueryOptions, type ClientSecret } from './get-client-secrets.ts';

export type CreatedClientSecret = CreatedClientSecretJson;

/**
 * POST /bff/api/clients/:id/secrets (SR-01): the only answer that carries the new secret. The
 * secret in use keeps working until deleted, or until `oldSecretExpiresIn` from now (SR-03).
 */
export function createClientSecret(
  id: string,
  oldSecretExpiresIn: SecretExpiry | undefined,
): Promise<CreatedClientSecret> {
  const json: CreateClientSecretRequest = oldSecretExpiresIn ? { old_secret_expires_in: oldSecretExpiresIn } : {};
  return accountRequest('POST', '/clients/:id/secrets', { id, json });
}

/**
 * Generates a secret. The secret goes straight to `onCreated` (the dialog's state); the cache
 * gets only the list that came with it, so the secret never enters the query client (TS-04).
 */
export function useCreateClientSecret(
  id: string,
  { onCreated }: { onCreated: (created: CreatedClientSecret) => void },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (oldSecretExpiresIn: SecretExpiry | undefined): Promise<ClientSecret[]> => {
      const created = await createClientSecret(id, oldSecretExpiresIn);
      onCreated(created);
      return created.secrets;
    },
    onSuccess: (secrets) => queryClient.setQueryData(clientSecretsQueryOptions(id).queryKey, secrets),
    meta: { inlineErrors: true },
  });
}
