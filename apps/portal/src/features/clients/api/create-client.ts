import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateClientRequest, IdTokenSignedResponseAlg } from '@latchkey/contracts';
import { accountRequest } from '../../../lib/api-client.ts';
import { clientsQueryOptions, type OAuthClient } from './get-clients.ts';

export interface NewClient {
  name: string;
  redirectUri: string;
  /** Optional; empty means none. */
  postLogoutRedirectUri?: string;
  /** PC-01: no secret; the app signs people in with PKCE. */
  public?: boolean;
  /** OI-20: left out, the server's default (RS256). */
  idTokenAlg?: IdTokenSignedResponseAlg;
  /** DV-25: may sign people in with the device flow (RFC 8628). */
  deviceGrant?: boolean;
}

export interface CreatedClient {
  client: OAuthClient;
  /** Undefined for a public client, which has none (PC-01). */
  clientSecret: string | undefined;
}

/** POST /bff/api/clients: the only response that ever carries the client secret. */
export async function createClient(input: NewClient): Promise<CreatedClient> {
  const json: CreateClientRequest = {
    name: input.name,
    redirect_uri: input.redirectUri,
    ...(input.postLogoutRedirectUri ? { post_logout_redirect_uri: input.postLogoutRedirectUri } : {}),
    ...(input.public ? { public: true } : {}),
    ...(input.idTokenAlg ? { id_token_signed_response_alg: input.idTokenAlg } : {}),
    // Sent only when ticked, like `public`: the server's default is off.
    ...(input.deviceGrant ? { device_grant: true } : {}),
  };
  const body = await accountRequest('POST', '/clients', { json });
  return { client: body.client, clientSecret: body.client_secret };
}

/**
 * Registers a client. The secret goes straight to `onCreated` (the dialog's state) and the
 * mutation keeps only the public client, so the secret never enters the query client's
 * caches (TS-04: shown once; kept out of the cache).
 */
export function useCreateClient({ onCreated }: { onCreated: (created: CreatedClient) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewClient): Promise<OAuthClient> => {
      const created = await createClient(input);
      onCreated(created);
      return created.client;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey }),
    meta: { inlineErrors: true },
  });
}
