import type { Client, CreatedClient } from '@latchkey/core';

/** A client on the API clients page. The secret is never part of it (TS-04). */
export interface ClientJson {
  id: string;
  client_id: string;
  name: string;
  redirect_uri: string;
  post_logout_redirect_uri: string | null;
  created_at: string;
  status: 'active' | 'revoked';
  revoked_at: string | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function presentClient(client: Client): ClientJson {
  return {
    id: client.id,
    client_id: client.id,
    name: client.name,
    redirect_uri: client.redirectUri,
    post_logout_redirect_uri: client.postLogoutRedirectUri,
    created_at: iso(client.createdAt),
    status: client.revokedAt === null ? 'active' : 'revoked',
    revoked_at: client.revokedAt === null ? null : iso(client.revokedAt),
  };
}

/** The only response that ever carries the client secret (TS-04: shown once). */
export function presentCreatedClient(created: CreatedClient): { client: ClientJson; client_secret: string } {
  return { client: presentClient(created.client), client_secret: created.clientSecret };
}
