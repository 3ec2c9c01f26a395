import type { ClientsTable } from '@latchkey/db';

export interface Client {
  id: string;
  ownerId: string | null;
  name: string;
  redirectUri: string;
  /** Where /oauth/logout may send the browser back to; null: never redirects for this client. */
  postLogoutRedirectUri: string | null;
  secretLast4: string;
  firstParty: boolean;
  requirePkce: boolean;
  createdAt: number;
  revokedAt: number | null;
}

export function clientRowToClient(row: ClientsTable): Client {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    redirectUri: row.redirect_uri,
    postLogoutRedirectUri: row.post_logout_redirect_uri,
    secretLast4: row.secret_last4,
    firstParty: Number(row.first_party) === 1,
    requirePkce: Number(row.require_pkce) === 1,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}
