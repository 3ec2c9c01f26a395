import type { ClientJson, CreatedClientJson } from '@latchkey/contracts';
import type { Client, CreatedClient } from '@latchkey/core';

const iso = (ms: number): string => new Date(ms).toISOString();

export function presentClient(client: Client): ClientJson {
  return {
    id: client.id,
    client_id: client.id,
    name: client.name,
    redirect_uri: client.redirectUris[0]!,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uri: client.postLogoutRedirectUri,
    description: client.description,
    client_uri: client.clientUri,
    policy_uri: client.policyUri,
    tos_uri: client.tosUri,
    created_at: iso(client.createdAt),
    status: client.revokedAt === null ? 'active' : 'revoked',
    revoked_at: client.revokedAt === null ? null : iso(client.revokedAt),
  };
}

/** The only response that ever carries the client secret (TS-04: shown once). */
export function presentCreatedClient(created: CreatedClient): CreatedClientJson {
  return { client: presentClient(created.client), client_secret: created.clientSecret };
}
