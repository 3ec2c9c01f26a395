import type { Kysely, Transaction } from 'kysely';

/**
 * Row types of every table. Times are integer milliseconds since the epoch on both
 * engines (BIGINT), so the domain compares numbers and never parses dates.
 */
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: number;
}

export interface ClientsTable {
  id: string;
  /** Null for clients provisioned from configuration (the portal's own client). */
  owner_id: string | null;
  name: string;
  /** A JSON array of 1 to 10 redirect URLs, each compared byte for byte as registered. */
  redirect_uris: string;
  /** The one post-logout redirect URL the client registered (RP-Initiated Logout), if any. */
  post_logout_redirect_uri: string | null;
  /** Shown on the consent page, each optional: a short description and three links (RFC 7591 §2 names). */
  description: string | null;
  client_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  first_party: number;
  /** OI-03: how this client's ID tokens are signed: `RS256` (the default) or `ES256`. */
  id_token_signed_response_alg: string;
  /** PC-01: 1 for a public client (no secret, PKCE required, `token_endpoint_auth_method` none). */
  public: number;
  require_pkce: number;
  created_at: number;
  revoked_at: number | null;
  /** SC-03: the scopes the client gets when it sends no `scope` (RFC 7591 §2), space-delimited. */
  scope: string;
  /** How the client came to be: `registered`, `metadata_document` (CM-*) or `dynamic` (DR-*). */
  registration: ClientRegistration;
  /** CM-*: when the metadata document must be fetched again (its HTTP caching, at most 24 h). */
  metadata_expires_at: number | null;
  /** CM-*, DR-*: the logo the client named (RFC 7591 `logo_uri`); kept, not shown. */
  logo_uri: string | null;
  /** DR-*: SHA-256 digest of the RFC 7592 registration access token. */
  registration_token_hash: string | null;
  /** DR-*: the last authorization or token request; dynamic clients unused for 30 days are removed. */
  last_used_at: number | null;
  /** DV-*: 1 when the client opted in to the device authorization grant (RFC 8628); 0 by default. */
  device_grant?: number;
}

export type ClientRegistration = 'registered' | 'metadata_document' | 'dynamic';

/** CM-*: hosts whose client ID metadata documents an operator blocked (`client block --host`). */
export interface BlockedClientHostsTable {
  host: string;
  created_at: number;
}

/** DR-*: initial access tokens for DYNAMIC_CLIENT_REGISTRATION=token; digests only (TS-04). */
export interface RegistrationTokensTable {
  id: string;
  token_hash: string;
  last4: string;
  label: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

/** SR-*: a confidential client's secrets, at most two live; only the SHA-256 digest is kept (TS-04). */
export interface ClientSecretsTable {
  id: string;
  client_id: string;
  secret_hash: string;
  last4: string;
  created_at: number;
  /** When it stops working (SR-03); null: until deleted. */
  expires_at: number | null;
  /** SR-05: the last successful client authentication with it, to the minute. */
  last_used_at: number | null;
}

/** PC-07: the origin of each redirect URL of a third-party client, kept with its redirect URLs. */
export interface ClientOriginsTable {
  origin: string;
  client_id: string;
}

export interface ConsentsTable {
  user_id: string;
  client_id: string;
  created_at: number;
  /** SC-05: every scope the user has approved for this client, space-delimited. */
  scope: string;
}

/** One authorization: the code and every access and refresh token issued from it (a token family). */
export interface GrantsTable {
  id: string;
  user_id: string;
  client_id: string;
  created_at: number;
  revoked_at: number | null;
  /** SC-04: what the user granted in this authorization; a refresh may narrow a token, never widen this. */
  scope: string;
  /** RS-03: the resource server it is for: `latchkey_api` (the Latchkey API) or a resource_servers id. */
  audience: string;
}

export interface AuthorizationCodesTable {
  id: string;
  code_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  /** The scopes approved for this code, copied to the grant and the first access token. */
  scope: string;
  /** OI-04: the authorization request's `nonce`, echoed in the ID token; null when none was sent. */
  nonce: string | null;
  /** OI-02: when the user last signed in (ms), the ID token's `auth_time`. */
  auth_time: number | null;
  /** RS-03: the resource server it is for: `latchkey_api` (the Latchkey API) or a resource_servers id. */
  audience: string;
}

export interface AccessTokensTable {
  id: string;
  token_hash: string;
  kind: 'pat' | 'oauth';
  user_id: string;
  client_id: string | null;
  grant_id: string | null;
  name: string;
  last4: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
  /** TR-06: where it was last used (the client's address, TRUST_PROXY respected) and by what; null until then. */
  last_used_ip?: string | null;
  last_used_user_agent?: string | null;
  /** TR-01: what a personal access token is for (at most 300 characters); null when not given. */
  description?: string | null;
  /** TR-03: when it was rolled, and the id of the token that replaced it; null when never rolled. */
  rolled_at?: number | null;
  replaced_by?: string | null;
  /** What this token may do (SC-06): an OAuth token's grant scope or less, a PAT's chosen scopes. */
  scope: string;
  /** RS-03: the resource server it is for: `latchkey_api` (the Latchkey API) or a resource_servers id. */
  audience: string;
}

export interface RefreshTokensTable {
  id: string;
  token_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  /** The refresh token this one was rotated from; null for the first of its grant. */
  parent_id: string | null;
  /** When this consumed token was honoured again inside the reuse grace window (once at most, HD-07). */
  grace_reused_at: number | null;
  /** The token rotated from this one that has been redeemed; its siblings are then reuse (HD-07). */
  used_child_id: string | null;
}

export interface SessionsTable {
  sid: string;
  data: string;
  expires_at: number;
}

/** OI-09: the keys ID tokens are signed with; the private half sealed, never stored in plaintext. */
export interface SigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: string;
  private_jwk_sealed: string;
  created_at: number;
  signs_from: number;
  retired_at: number | null;
}

export interface ResourceServersTable {
  id: string;
  uri: string;
  name: string;
  scope: string;
  created_at: number;
  revoked_at: number | null;
}

/** DV-*: one device authorization request (RFC 8628 §3.1); codes kept as SHA-256 digests only. */
export interface DeviceAuthorizationsTable {
  id: string;
  device_code_hash: string;
  user_code_hash: string;
  client_id: string;
  scope: string;
  audience: string;
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  user_id: string | null;
  auth_time: number | null;
  interval_seconds: number;
  last_polled_at: number | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
}

export interface LocksTable {
  key: string;
  holder: string;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  clients: ClientsTable;
  client_secrets: ClientSecretsTable;
  client_origins: ClientOriginsTable;
  consents: ConsentsTable;
  grants: GrantsTable;
  authorization_codes: AuthorizationCodesTable;
  access_tokens: AccessTokensTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  locks: LocksTable;
  signing_keys: SigningKeysTable;
  resource_servers: ResourceServersTable;
  blocked_client_hosts: BlockedClientHostsTable;
  registration_tokens: RegistrationTokensTable;
  device_authorizations: DeviceAuthorizationsTable;
  security_events: SecurityEventsTable;
}

/** AU-01: one event of a user's security log; append-only, never a secret in it. */
export interface SecurityEventsTable {
  id: string;
  user_id: string;
  type: string;
  actor: 'user' | 'operator' | 'reporter' | 'system';
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  outcome: 'success' | 'failure';
  created_at: number;
}

/** What repositories take as their first argument: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type Db = Kysely<Database>;
