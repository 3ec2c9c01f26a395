import type { ClientJson, ClientSecretJson, CreatedClientSecretJson } from '@latchkey/contracts';
import type { Client } from './client.ts';
import type { ClientSecret, CreatedClientSecret } from './client-secrets.service.ts';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

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
    id_token_signed_response_alg: client.idTokenAlg,
    device_grant: client.deviceGrant,
    created_at: iso(client.createdAt),
    status: client.revokedAt === null ? 'active' : 'revoked',
    revoked_at: client.revokedAt === null ? null : iso(client.revokedAt),
  };
}

/** SR-05: a secret as the account API and the CLI list it: id, last four characters, times; never the secret (TS-04). */
export function presentClientSecret(secret: ClientSecret): ClientSecretJson {
  return {
    id: secret.id,
    last4: secret.last4,
    created_at: iso(secret.createdAt),
    expires_at: isoOrNull(secret.expiresAt),
    last_used_at: isoOrNull(secret.lastUsedAt),
  };
}

/** The only answer that carries a new secret (SR-01: shown once), with the client's secrets after it. */
export function presentCreatedClientSecret(created: CreatedClientSecret): CreatedClientSecretJson {
  return {
    secret: presentClientSecret(created.secret),
    client_secret: created.clientSecret,
    secrets: created.secrets.map(presentClientSecret),
  };
}
