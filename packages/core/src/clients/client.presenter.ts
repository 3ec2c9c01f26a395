import type { ClientJson } from '@latchkey/contracts';
import type { Client } from './client.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A client as the account API answers it (the contract's ClientJson), and the part of the
 * admin CLI's answer the two share. Never the secret (TS-04).
 */
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
    public: client.public,
    created_at: iso(client.createdAt),
    status: client.revokedAt === null ? 'active' : 'revoked',
    revoked_at: client.revokedAt === null ? null : iso(client.revokedAt),
  };
}
