import * as z from 'zod/mini';
import { ALL_SCOPES, type Scope } from './scopes.ts';
import type { RollOverlap, SecretExpiry } from './limits.ts';
import { securityEventJson } from './security-log.ts';

/**
 * The account API (DD-8), written once: what the authorization server's `/account/*`
 * endpoints answer, what the portal's BFF forwards under `/bff/api/*`, what the SPA parses and
 * the mock server imitates. zod's mini build keeps the portal's bundle small. The servers
 * validate requests with their own messages; the request types here are the shapes they take.
 */

/** Times are ISO 8601 in UTC, as `Date.prototype.toISOString` writes them. */
const instant = z.iso.datetime();

/** What a token or an application may do (SC-07, SC-09): scope names, in registry order (scopes.ts). */
const scopes = z.array(z.enum(ALL_SCOPES as [Scope, ...Scope[]]));

export const meJson = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
});
export type MeJson = z.infer<typeof meJson>;

/**
 * OI-20: how a client's ID tokens may be signed (`id_token_signed_response_alg`, OpenID Connect
 * Dynamic Client Registration §2), the first the default. The same list as discovery's
 * `id_token_signing_alg_values_supported`, which core's ID_TOKEN_ALGS is.
 */
export const ID_TOKEN_SIGNED_RESPONSE_ALGS = ['RS256', 'ES256'] as const;
export type IdTokenSignedResponseAlg = (typeof ID_TOKEN_SIGNED_RESPONSE_ALGS)[number];

/** A client on the API clients page. The secret is never part of it (TS-04). */
export const clientJson = z.object({
  id: z.string(),
  client_id: z.string(),
  name: z.string(),
  /** The first of `redirect_uris`, as when a client had one (the documented interface, docs/integrating.md). */
  redirect_uri: z.string(),
  /** 1 to 10; `/oauth/authorize` accepts a `redirect_uri` byte-for-byte equal to one of them. */
  redirect_uris: z.array(z.string()),
  /** Where the end-session endpoint may send people back after sign-out; null if none. */
  post_logout_redirect_uri: z.nullable(z.string()),
  /** What the consent page shows; RFC 7591 §2's names. Null when not given. */
  description: z.nullable(z.string()),
  client_uri: z.nullable(z.string()),
  policy_uri: z.nullable(z.string()),
  tos_uri: z.nullable(z.string()),
  /**
   * PC-01: a public client (RFC 6749 §2.1) has no secret: a browser, mobile, desktop or
   * command-line app. It must use PKCE and authenticates with `client_id` alone
   * (`token_endpoint_auth_method` `none`).
   */
  public: z.boolean(),
  /** OI-20: the algorithm its ID tokens are signed with; RS256 unless ES256 was chosen. */
  id_token_signed_response_alg: z.enum(ID_TOKEN_SIGNED_RESPONSE_ALGS),
  /**
   * DV-24: the client may use the device authorization grant (RFC 8628, docs/device-flow.md):
   * sign-in on a device without a browser. False unless asked for.
   */
  device_grant: z.boolean(),
  created_at: instant,
  status: z.enum(['active', 'revoked']),
  revoked_at: z.nullable(instant),
});
export type ClientJson = z.infer<typeof clientJson>;

export const clientList = z.array(clientJson);

/** The only answer that ever carries the client secret (TS-04: shown once); a public client has none. */
export const createdClientJson = z.object({ client: clientJson, client_secret: z.optional(z.string()) });
export type CreatedClientJson = z.infer<typeof createdClientJson>;

/**
 * One of a confidential client's secrets (SR-*): at most two live at once, so an app can roll
 * its secret without downtime. Never the secret itself, only its last four characters.
 */
export const clientSecretJson = z.object({
  id: z.string(),
  last4: z.string(),
  created_at: instant,
  /** When it stops working; null: until deleted. */
  expires_at: z.nullable(instant),
  last_used_at: z.nullable(instant),
});
export type ClientSecretJson = z.infer<typeof clientSecretJson>;
export const clientSecretList = z.array(clientSecretJson);

/** The only answer that carries a new secret (shown once), with the client's secrets after it. */
export const createdClientSecretJson = z.object({
  secret: clientSecretJson,
  client_secret: z.string(),
  secrets: clientSecretList,
});
export type CreatedClientSecretJson = z.infer<typeof createdClientSecretJson>;

/** POST /account/clients/{id}/secrets: optionally, when the secret in use now stops working. */
export interface CreateClientSecretRequest {
  old_secret_expires_in?: SecretExpiry;
}

/** The optional details of a client; null or "" clears one on an update. */
export interface ClientDetailsRequest {
  description?: string | null;
  client_uri?: string | null;
  policy_uri?: string | null;
  tos_uri?: string | null;
}

/** One redirect URL (`redirect_uri`) or several (`redirect_uris`), not both. */
export interface CreateClientRequest extends ClientDetailsRequest {
  name: string;
  redirect_uri?: string;
  redirect_uris?: string[];
  post_logout_redirect_uri?: string;
  /** PC-01: register a public client (no secret, PKCE required). */
  public?: boolean;
  /** OI-20: RS256 when left out. */
  id_token_signed_response_alg?: IdTokenSignedResponseAlg;
  /** DV-24: opt in to the device authorization grant; false when left out. */
  device_grant?: boolean;
}

/** PATCH /account/clients/{id}: only the fields sent change. */
export interface UpdateClientRequest extends ClientDetailsRequest {
  name?: string;
  redirect_uri?: string;
  redirect_uris?: string[];
  post_logout_redirect_uri?: string | null;
  /** OI-20: takes effect on the next ID token issued. */
  id_token_signed_response_alg?: IdTokenSignedResponseAlg;
  /** DV-24: opt in to, or out of, the device authorization grant. */
  device_grant?: boolean;
}

/** A token on the API tokens page: its last four characters, never the value (TS-04). */
export const tokenJson = z.object({
  id: z.string(),
  name: z.string(),
  /** TR-01: what a personal access token is for; null when not given (always for an OAuth token). */
  description: z.nullable(z.string()),
  kind: z.enum(['pat', 'oauth']),
  last4: z.string(),
  created_at: instant,
  /** When it stops working; for a rolled token, the end of the overlap (TR-03). */
  expires_at: instant,
  last_used_at: z.nullable(instant),
  /** TR-06: the address (TRUST_PROXY respected) and User-Agent of that last use; null when never used. */
  last_used_ip: z.nullable(z.string()),
  last_used_user_agent: z.nullable(z.string()),
  status: z.enum(['active', 'expired', 'revoked']),
  scopes,
  /** TR-03: the id of the token a roll made in its place; null when never rolled. */
  replaced_by: z.nullable(z.string()),
});
export type TokenJson = z.infer<typeof tokenJson>;

export const tokenList = z.array(tokenJson);

/** The only answer that ever carries the token's value (TS-04: shown once). */
export const createdTokenJson = z.object({ token: tokenJson, value: z.string() });
export type CreatedTokenJson = z.infer<typeof createdTokenJson>;

/** At most one of the two expiries; with neither the token gets the configured lifetime (one year). */
export interface CreateTokenRequest {
  name: string;
  /** TR-01: at most 300 characters. */
  description?: string | null;
  expires_at?: string | null;
  expires_in_days?: number | null;
  /** SC-07: at least one third-party scope; every third-party scope when absent. */
  scopes?: Scope[];
}

/** PATCH /account/tokens/{id} (TR-02): only the fields sent change; null or "" clears the description. */
export interface UpdateTokenRequest {
  name?: string;
  description?: string | null;
}

/** POST /account/tokens/{id}/roll (TR-03): how long the old value keeps working; `none` when left out. */
export interface RollTokenRequest {
  overlap?: RollOverlap;
}

/**
 * How a client came to be (issue 32): `registered` by a developer (the portal, the CLI) or
 * provisioned; `metadata_document`: its id is the https URL of its client ID metadata document;
 * `dynamic`: it registered itself (RFC 7591). The last two are vouched for by nobody.
 */
export const CLIENT_REGISTRATIONS = ['registered', 'metadata_document', 'dynamic'] as const;
export type ClientRegistrationKind = (typeof CLIENT_REGISTRATIONS)[number];

/**
 * A third-party application the user authorized, once however many times they signed in to it
 * (AA-01). `active_grants`: authorizations that still hold a working token.
 */
export const applicationJson = z.object({
  client_id: z.string(),
  name: z.string(),
  /** The developer who registered it; null for a client provisioned without an owner. */
  owner_name: z.nullable(z.string()),
  first_authorized_at: instant,
  last_used_at: z.nullable(instant),
  /** TR-06: the address and User-Agent of that last use; null when never used. */
  last_used_ip: z.nullable(z.string()),
  last_used_user_agent: z.nullable(z.string()),
  active_grants: z.number(),
  /** SC-09: what it holds, the union of its active grants' scopes; empty once none is active. */
  scopes,
  /** CM-16: how the client came to be; a self-registered one is shown as unverified. */
  registration: z.enum(CLIENT_REGISTRATIONS),
  /**
   * CM-16: for a metadata-document client, the host its document is on (ASCII, as the URL
   * parser writes it): what the list names it by ("from claude.ai"); null for any other.
   */
  host: z.nullable(z.string()),
});
export type ApplicationJson = z.infer<typeof applicationJson>;

export const applicationList = z.array(applicationJson);

/**
 * A third-party application the user authorized, as core's applications service returns it
 * (times in ms): declared here, beside its one presenter, so that the two cannot drift.
 */
export interface AuthorizedApplication {
  clientId: string;
  name: string;
  /** The name of the developer who registered the client; null for one provisioned without an owner. */
  ownerName: string | null;
  /** When the user first approved it (since they last revoked its access). */
  firstAuthorizedAt: number;
  /** The latest API call with one of its tokens, or null if none yet. */
  lastUsedAt: number | null;
  /** TR-06: where that call came from and what made it; null if none yet. */
  lastUsedIp: string | null;
  lastUsedUserAgent: string | null;
  /** Authorizations (token families) that still hold a working access or refresh token. */
  activeGrants: number;
  /** The union of the scopes of those authorizations, in registry order (SC-09). */
  scopes: Scope[];
  /** CM-16: how the client came to be (issue 32). */
  registration: ClientRegistrationKind;
  /** CM-16: the host of a metadata-document client's document; null for any other client. */
  host: string | null;
}

/** The one presenter of an authorized application, for the account endpoint and the CLI alike. */
export function toApplicationJson(app: AuthorizedApplication): ApplicationJson {
  return {
    client_id: app.clientId,
    name: app.name,
    owner_name: app.ownerName,
    first_authorized_at: new Date(app.firstAuthorizedAt).toISOString(),
    last_used_at: app.lastUsedAt === null ? null : new Date(app.lastUsedAt).toISOString(),
    last_used_ip: app.lastUsedIp,
    last_used_user_agent: app.lastUsedUserAgent,
    active_grants: app.activeGrants,
    scopes: app.scopes,
    registration: app.registration,
    host: app.host,
  };
}

/**
 * GET /account/security-log (AU-05): a page of the user's security log, newest first, and the
 * cursor of the next page (`before`), null on the last. Query: `type` (one event type), `before`
 * (a cursor from `next`), `limit` (1 to 100, 50 by default).
 */
export const securityLogJson = z.object({ events: z.array(securityEventJson), next: z.nullable(z.string()) });
export type SecurityLogJson = z.infer<typeof securityLogJson>;
export const SECURITY_LOG_QUERY = ['type', 'before', 'limit'] as const;
export const SECURITY_LOG_PAGE_SIZE = 50;

/** Every refusal of the account endpoints and the BFF: a code, a readable description, the field at fault. */
export const errorJson = z.object({
  error: z.string(),
  error_description: z.string(),
  field: z.optional(z.string()),
});
export type ErrorJson = z.infer<typeof errorJson>;

/**
 * Every account endpoint, below `/account` on the authorization server and `/bff/api` on the
 * portal, with the answer of each method: the one route table. Built from it: the authorization
 * server's router and its `Allow` answers (a handler map the type checker holds to the table),
 * the BFF's proxy, the portal's API client (URL and answer schema by route), its mock server's
 * routes, and the data URLs the BFF preloads with a page. A contract test calls each route and
 * parses the answer with its schema. Adding a route is one entry here plus its handler.
 */
export const ACCOUNT_ROUTES = [
  { path: '/me', answers: { GET: meJson } },
  { path: '/clients', answers: { GET: clientList, POST: createdClientJson } },
  { path: '/clients/:id', answers: { GET: clientJson, PATCH: clientJson } },
  { path: '/clients/:id/revoke', answers: { POST: clientJson } },
  { path: '/clients/:id/secrets', answers: { GET: clientSecretList, POST: createdClientSecretJson } },
  { path: '/clients/:id/secrets/:secretId/delete', answers: { POST: clientSecretList } },
  { path: '/tokens', answers: { GET: tokenList, POST: createdTokenJson } },
  { path: '/tokens/:id', answers: { PATCH: tokenJson } },
  { path: '/tokens/:id/roll', answers: { POST: createdTokenJson } },
  { path: '/tokens/:id/revoke', answers: { POST: tokenJson } },
  { path: '/applications', answers: { GET: applicationList } },
  { path: '/applications/:id/revoke', answers: { POST: applicationJson } },
  { path: '/security-log', answers: { GET: securityLogJson }, query: SECURITY_LOG_QUERY },
] as const;

/** The query parameters a route takes, which the BFF forwards (and no others); none when absent. */
export function queryOf(route: AccountRoute): readonly string[] {
  return 'query' in route ? route.query : [];
}

export type AccountRoute = (typeof ACCOUNT_ROUTES)[number];
export type AccountPath = AccountRoute['path'];
/** The methods the table gives a path. */
export type AccountMethod<P extends AccountPath> = keyof Extract<AccountRoute, { path: P }>['answers'] & string;
/** What a route answers to a method, as its schema parses it. */
type AnswersOf<P extends AccountPath> = Extract<AccountRoute, { path: P }>['answers'];
export type AccountAnswer<P extends AccountPath, M extends AccountMethod<P>> =
  AnswersOf<P>[M & keyof AnswersOf<P>] extends z.ZodMiniType<infer T> ? T : never;

/** Where the table is mounted: on the authorization server, and on the portal's BFF. */
export const ACCOUNT_BASE = '/account';
export const BFF_ACCOUNT_BASE = '/bff/api';

/** The table's entry for a path. */
export function accountRoute<P extends AccountPath>(path: P): Extract<AccountRoute, { path: P }> {
  return ACCOUNT_ROUTES.find((route) => route.path === path) as Extract<AccountRoute, { path: P }>;
}

/** The `Allow` answer of a route: its methods, and HEAD with GET (HTTP answers HEAD as GET). */
export function allowedMethods(route: AccountRoute): string {
  return Object.keys(route.answers)
    .flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]))
    .join(', ');
}

/** A path of the table with a path parameter. */
export type AccountPathWithId = Extract<AccountPath, `${string}:id${string}`>;

/**
 * The URL of a route below `base` (ACCOUNT_BASE or BFF_ACCOUNT_BASE), its `:id` filled in and
 * encoded: `accountUrl(BFF_ACCOUNT_BASE, '/clients/:id', id)`.
 */
export function accountUrl<P extends AccountPath>(
  base: string,
  path: P,
  ...id: P extends AccountPathWithId ? [id: string] : []
): string {
  const [value] = id as string[];
  return `${base}${value === undefined ? path : path.replace(':id', encodeURIComponent(value))}`;
}

/**
 * GET /bff/session (the portal's own): who is signed in, from the session alone, and the API's
 * MCP endpoint (`{API_URL}/mcp`), which the Explorer shows to paste into an MCP client (RS-22).
 */
export const sessionJson = z.object({ user: meJson, mcpUrl: z.string() });
export type SessionJson = z.infer<typeof sessionJson>;
