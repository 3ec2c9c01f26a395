import { storedScopes, type Scope } from '@latchkey/contracts';
import type { ClientRegistration, ClientsTable } from '@latchkey/db';
import type { IdTokenAlg } from '../oidc/signing-keys.service.ts';

export interface Client {
  id: string;
  ownerId: string | null;
  name: string;
  /** 1 to 10 redirect URLs, in the order registered; `redirect_uri` must equal one byte for byte. */
  redirectUris: string[];
  /** Where /oauth/logout may send the browser back to; null: never redirects for this client. */
  postLogoutRedirectUri: string | null;
  /** What the consent page shows about the application, each optional. */
  description: string | null;
  /** The application's homepage (RFC 7591 `client_uri`). */
  clientUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  firstParty: boolean;
  /** PC-01: no secret; PKCE required; authenticates at the token endpoint with `client_id` alone. */
  public: boolean;
  requirePkce: boolean;
  /** SC-03: what the client gets when its authorization request has no `scope` (RFC 7591 §2 `scope`). */
  scopes: Scope[];
  /** OI-03: how its ID tokens are signed (`id_token_signed_response_alg`, OpenID Connect Registration §2). */
  idTokenAlg: IdTokenAlg;
  /**
   * How it came to be (issue 32): `registered` by a person (portal, CLI) or provisioned;
   * `metadata_document`: its id is the https URL of its client ID metadata document (CM-*);
   * `dynamic`: it registered itself at /oauth/register (DR-*). The last two have no owner and are
   * not vouched for by anyone the user knows.
   */
  registration: ClientRegistration;
  /** The logo the client named (RFC 7591 `logo_uri`); kept, never shown. */
  logoUri: string | null;
  /** DV-*: the client opted in to the device authorization grant (RFC 8628). */
  deviceGrant: boolean;
  createdAt: number;
  revokedAt: number | null;
}

export type { ClientRegistration };

export function clientRowToClient(row: ClientsTable): Client {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUri: row.post_logout_redirect_uri,
    description: row.description ?? null,
    clientUri: row.client_uri ?? null,
    policyUri: row.policy_uri ?? null,
    tosUri: row.tos_uri ?? null,
    firstParty: Number(row.first_party) === 1,
    public: Number(row.public) === 1,
    requirePkce: Number(row.require_pkce) === 1,
    scopes: storedScopes(row.scope),
    idTokenAlg: row.id_token_signed_response_alg === 'ES256' ? 'ES256' : 'RS256',
    registration: row.registration ?? 'registered',
    logoUri: row.logo_uri ?? null,
    deviceGrant: Number(row.device_grant ?? 0) === 1,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}
