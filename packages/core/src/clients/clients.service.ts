import { ACCESS_SCOPES, formatScope, THIRD_PARTY_SCOPES, type Scope } from '@latchkey/contracts';
import { digest, lastFour } from '@latchkey/credentials';
import type { ClientsTable, Executor } from '@latchkey/db';
import { systemClock, type Clock } from '../clock.ts';
import { Conflict, InvalidClient, LimitReached, NotFound, ValidationFailed } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import { countActiveClients, insertWithinCap } from '../limits/per-user-cap.ts';
import { clientRowToClient, type Client, type ClientRegistration } from './client.ts';
import {
  findClientRowById,
  insertClient,
  listClientRows,
  markClientRevoked,
  updateClientRow,
  upsertProvisionedClient,
  type ClientUpdate,
} from './clients.repository.ts';
import { validateLinkUrl, validateRedirectUriForRegistration, validateRedirectUris } from './redirect-uri.ts';
import {
  insertClientSecret,
  findClientWithSecrets,
  SECRET_TOUCH_INTERVAL_MS,
  touchClientSecret,
  upsertProvisionedSecret,
} from './client-secrets.repository.ts';
import { matchSecret, newSecretRow } from './client-secrets.service.ts';
import { replaceClientOrigins } from './cors-origins.ts';
import { validateDescription, validateName } from '../text.ts';
import { ID_TOKEN_ALGS, type IdTokenAlg } from '../oidc/signing-keys.service.ts';
import { actorOrDefault, inTransaction, OPERATOR, type AuditActor } from '../audit/security-events.ts';
import { recordClientEvent } from './client-events.ts';

/** The optional details a consent page shows; blank or null means none. */
export interface ClientDetails {
  description?: string | null | undefined;
  /** The application's homepage (RFC 7591 `client_uri`). */
  clientUri?: string | null | undefined;
  policyUri?: string | null | undefined;
  tosUri?: string | null | undefined;
}

export interface NewClient extends ClientDetails {
  /** The user who registered it; null for a client that registered itself (DR-*), which no one owns. */
  ownerId: string | null;
  name: string;
  /** 1 to 10 redirect URLs (CE-02). */
  redirectUris: readonly string[];
  /** The request field they came in, for the error's `field`: `redirect_uri` (one) or `redirect_uris`. */
  redirectUrisField?: 'redirect_uri' | 'redirect_uris';
  /** Optional; validated like the redirect URL (absolute, https or loopback http, no fragment). */
  postLogoutRedirectUri?: string | undefined;
  requirePkce?: boolean;
  /**
   * PC-01: a public client (RFC 6749 §2.1): no secret, PKCE required, and its redirect URLs may
   * use a private-use scheme (PC-05). Fixed at registration.
   */
  public?: boolean;
  /** OI-20: how its ID tokens are signed (`id_token_signed_response_alg`); RS256 when left out. */
  idTokenAlg?: IdTokenAlg | undefined;
  /**
   * HD-14: the most active (not revoked) clients the owner may hold, this one included; over
   * it the creation is refused with LimitReached and nothing is stored. Unset (the operators'
   * CLI): no cap.
   */
  maxActive?: number | undefined;
  /**
   * SC-03: the scopes it may hold and gets by default, each a third-party scope (`account` is
   * refused); every third-party scope when left out.
   */
  scopes?: readonly Scope[] | undefined;
  /** How it came to be; `registered` (a person, through the portal or the CLI) when left out. */
  registration?: Exclude<ClientRegistration, 'metadata_document'> | undefined;
  /** DR-*: the SHA-256 digest of a dynamic client's registration access token (RFC 7592). */
  registrationTokenHash?: string | undefined;
  /** DV-23, DV-24, DV-26: may use the device authorization grant (RFC 8628); off unless asked. */
  deviceGrant?: boolean | undefined;
}

export interface CreatedClient {
  client: Client;
  /** Shown once; only its SHA-256 digest and last four characters are kept. Undefined for a public client. */
  clientSecret: string | undefined;
}

function validateClientName(value: string): string {
  // Only the service's own clients speak in its name; validateName refuses it and its
  // look-alikes in a client name (HD-04, HD-10).
  return validateName(value, 'client name');
}

const blank = (value: string | null | undefined): boolean =>
  value === null || value === undefined || value.trim() === '';

function validatePostLogoutRedirectUri(value: string | null | undefined): string | null {
  return blank(value) ? null : validateRedirectUriForRegistration(value!.trim(), 'post_logout_redirect_uri');
}

/** Only the details given are validated and returned, as column values; blank clears one. */
function validateDetails(
  details: ClientDetails,
): Partial<Pick<ClientsTable, 'description' | 'client_uri' | 'policy_uri' | 'tos_uri'>> {
  const link = (value: string | null, field: 'client_uri' | 'policy_uri' | 'tos_uri') =>
    blank(value) ? null : validateLinkUrl(value!.trim(), field);
  return {
    ...(details.description !== undefined && {
      description: details.description === null ? null : validateDescription(details.description),
    }),
    ...(details.clientUri !== undefined && { client_uri: link(details.clientUri, 'client_uri') }),
    ...(details.policyUri !== undefined && { policy_uri: link(details.policyUri, 'policy_uri') }),
    ...(details.tosUri !== undefined && { tos_uri: link(details.tosUri, 'tos_uri') }),
  };
}

/**
 * OI-20: RS256 or ES256, the algorithms discovery lists; anything else (`HS256`, `none`, a
 * number from an untyped caller) is refused naming the field, before anything is written.
 */
function validateIdTokenAlg(value: unknown): IdTokenAlg {
  if (!ID_TOKEN_ALGS.includes(value as IdTokenAlg)) {
    throw new ValidationFailed(
      'id_token_signed_response_alg',
      `id_token_signed_response_alg must be ${ID_TOKEN_ALGS.join(' or ')}.`,
    );
  }
  return value as IdTokenAlg;
}

/** SC-03: only third-party scopes; `account` (the portal's own) and `openid` (anyone's, no one's default) are not a client's. */
function validateClientScopes(scopes: readonly Scope[] | undefined): string {
  if (scopes === undefined) return formatScope(THIRD_PARTY_SCOPES);
  const refused = scopes.filter((scope) => !THIRD_PARTY_SCOPES.includes(scope));
  if (refused.length > 0) {
    throw new ValidationFailed('scope', `A client may hold only these scopes: ${THIRD_PARTY_SCOPES.join(', ')}.`);
  }
  return formatScope(scopes);
}

function clientLimitReached(cap: number): LimitReached {
  const clients = cap === 1 ? '1 active client' : `${cap} active clients`;
  return new LimitReached(
    `You already have ${clients}, the most one account may have. Revoke a client you no longer use to register another.`,
  );
}

/** What registering a confidential client returns: its first secret, shown once. */
export interface CreatedConfidentialClient extends CreatedClient {
  clientSecret: string;
}

/**
 * Registers a client. AU-12: `client.created` goes in its owner's log with it, by `actor` (the
 * account API passes the signed-in user; without one, as the CLI calls it, an operator); a client
 * no one owns (DR-*, self-registered) is in no one's log.
 */
export async function createClient(
  db: Executor,
  clock: Clock,
  input: NewClient & { public?: false },
  actor?: AuditActor,
): Promise<CreatedConfidentialClient>;
export async function createClient(
  db: Executor,
  clock: Clock,
  input: NewClient,
  actor?: AuditActor,
): Promise<CreatedClient>;
export async function createClient(
  db: Executor,
  clock: Clock,
  input: NewClient,
  actor?: AuditActor,
): Promise<CreatedClient> {
  const name = validateClientName(input.name);
  const isPublic = input.public === true;
  const redirectUris = validateRedirectUris(input.redirectUris, input.redirectUrisField ?? 'redirect_uris', isPublic);
  const postLogoutRedirectUri = validatePostLogoutRedirectUri(input.postLogoutRedirectUri);
  const idTokenAlg = input.idTokenAlg === undefined ? 'RS256' : validateIdTokenAlg(input.idTokenAlg);
  const scope = validateClientScopes(input.scopes);
  const details = validateDetails({
    description: input.description ?? null,
    clientUri: input.clientUri ?? null,
    policyUri: input.policyUri ?? null,
    tosUri: input.tosUri ?? null,
  });
  const now = clock.now();
  const row: ClientsTable = {
    id: newId(IdPrefix.client),
    owner_id: input.ownerId,
    name,
    redirect_uris: JSON.stringify(redirectUris),
    post_logout_redirect_uri: postLogoutRedirectUri,
    description: null,
    client_uri: null,
    policy_uri: null,
    tos_uri: null,
    ...details,
    first_party: 0,
    public: isPublic ? 1 : 0,
    id_token_signed_response_alg: idTokenAlg,
    // PC-02: a public client cannot keep a secret, so PKCE is what binds its code to it.
    require_pkce: input.requirePkce || isPublic ? 1 : 0,
    // SC-03: a third-party client may ask for, and gets by default, every third-party scope
    // (or those it registered with).
    scope,
    registration: input.registration ?? 'registered',
    metadata_expires_at: null,
    logo_uri: null,
    registration_token_hash: input.registrationTokenHash ?? null,
    last_used_at: null,
    device_grant: input.deviceGrant ? 1 : 0,
    created_at: now,
    revoked_at: null,
  };
  const secret = isPublic ? undefined : newSecretRow(row.id, now);
  const insert = async (trx: Executor): Promise<void> => {
    await insertClient(trx, row);
    // AU-02: the client and its event commit together (a failure in what follows rolls back both).
    await recordClientEvent(trx, actor ?? OPERATOR, 'client.created', row, now);
    await replaceClientOrigins(trx, row.id, redirectUris);
    if (secret) await insertClientSecret(trx, secret.row);
  };
  const ownerId = input.ownerId;
  if (input.maxActive === undefined) {
    await inTransaction(db, insert);
  } else {
    // HD-14's cap is per owner: a client no one owns has none to count against.
    if (ownerId === null) throw new Error('maxActive needs an owner');
    const inserted = await insertWithinCap(db, {
      userId: ownerId,
      cap: input.maxActive,
      count: (trx) => countActiveClients(trx, ownerId),
      insert,
    });
    if (!inserted) throw clientLimitReached(input.maxActive);
  }
  return { client: clientRowToClient(row), clientSecret: secret?.clientSecret };
}

/** What an edit may change; a field left out stays as it is. */
export interface ClientChanges extends ClientDetails {
  name?: string | undefined;
  redirectUris?: readonly string[] | undefined;
  redirectUrisField?: 'redirect_uri' | 'redirect_uris';
  /** Null or blank removes it. */
  postLogoutRedirectUri?: string | null | undefined;
  /** OI-20: the next ID token issued to the client is signed with it. */
  idTokenAlg?: IdTokenAlg | undefined;
  /**
   * DV-24: opts the client in to (or out of) the device authorization grant. Device codes it
   * already holds are not revoked; opted out, they cannot be redeemed (DV-09 checks at each poll).
   */
  deviceGrant?: boolean | undefined;
}

/**
 * Edits a client (issue 19): only the fields given change, and the next /oauth/authorize sees
 * them (CE-01). Every field is validated as at creation before anything is written, so a bad one
 * changes nothing (CE-06). Removing a redirect URL revokes nothing: a code already issued for it
 * still redeems against it (its binding is the code's), and tokens are not tied to a redirect URL
 * (CE-07). Only the owner may edit; anyone else, and the service's own client, get NotFound
 * (CE-05). A revoked client cannot be edited (CE-08). AU-12: an edit that changes a field writes
 * `client.edited` in the owner's log, in its transaction (AU-02), at `clock`'s time.
 */
export async function updateClient(
  db: Executor,
  clientId: string,
  ownerId: string | undefined,
  changes: ClientChanges,
  actor?: AuditActor,
  clock: Clock = systemClock,
): Promise<Client> {
  const row = await findClientRowById(db, clientId);
  if (!row || (ownerId !== undefined && row.owner_id !== ownerId) || Number(row.first_party) === 1) {
    throw new NotFound('No such client.');
  }
  if (row.revoked_at !== null) throw new Conflict('This client is revoked; a revoked client cannot be edited.');
  const values: ClientUpdate = {
    ...(changes.name !== undefined && { name: validateClientName(changes.name) }),
    ...(changes.redirectUris !== undefined && {
      redirect_uris: JSON.stringify(
        validateRedirectUris(
          changes.redirectUris,
          changes.redirectUrisField ?? 'redirect_uris',
          Number(row.public) === 1,
        ),
      ),
    }),
    ...(changes.postLogoutRedirectUri !== undefined && {
      post_logout_redirect_uri: validatePostLogoutRedirectUri(changes.postLogoutRedirectUri),
    }),
    ...validateDetails(changes),
    ...(changes.idTokenAlg !== undefined && {
      id_token_signed_response_alg: validateIdTokenAlg(changes.idTokenAlg),
    }),
    ...(changes.deviceGrant !== undefined && { device_grant: changes.deviceGrant ? 1 : 0 }),
  };
  if (Object.keys(values).length > 0) {
    const update = async (trx: Executor): Promise<void> => {
      await updateClientRow(trx, clientId, values);
      // PC-07: the origins CORS allows follow the redirect URLs, in the same transaction.
      if (values.redirect_uris !== undefined) {
        await replaceClientOrigins(trx, clientId, JSON.parse(values.redirect_uris) as string[]);
      }
      await recordClientEvent(trx, actorOrDefault(actor, ownerId), 'client.edited', row, clock.now());
    };
    await inTransaction(db, update);
  }
  return clientRowToClient((await findClientRowById(db, clientId))!);
}

/**
 * Client authentication (RFC 6749 §2.3.1). Unknown client, wrong, deleted or expired secret,
 * revoked client and a public client sent a secret (PC-04) fail alike, with the same work done,
 * so the answer does not tell which (CA-02). Either live secret of the client works (SR-01), and
 * both are compared whichever matches (SR-06).
 */
export async function authenticateClient(
  db: Executor,
  clientId: string,
  clientSecret: string,
  clock: Clock = systemClock,
): Promise<Client> {
  // One read whether or not the client exists: an unknown client costs the same query (CA-02).
  const { client: row, secrets } = await findClientWithSecrets(db, clientId);
  // Every presented secret is hashed, whatever its shape: operators may configure the portal's
  // secret themselves (PORTAL_CLIENT_SECRET), and the work done must not depend on the input.
  const now = clock.now();
  const matched = matchSecret(secrets, clientSecret, now);
  if (!row || !matched || row.revoked_at !== null || Number(row.public) === 1) {
    throw new InvalidClient('Client authentication failed.');
  }
  // The row just read tells whether the minute has passed: no write at all (not even one that
  // changes nothing) on most authentications. The update keeps its own condition for other instances.
  if (matched.last_used_at === null || Number(matched.last_used_at) <= now - SECRET_TOUCH_INTERVAL_MS) {
    await touchClientSecret(db, matched.id, now);
  }
  return clientRowToClient(row);
}

/**
 * PC-03: a public client at the token and revocation endpoints names itself with `client_id`
 * and no secret (`token_endpoint_auth_method` none). A confidential client that sends no
 * secret, an unknown client and a revoked one fail alike.
 */
export async function authenticatePublicClient(db: Executor, clientId: string): Promise<Client> {
  const row = await findClientRowById(db, clientId);
  if (!row || row.revoked_at !== null || Number(row.public) !== 1) {
    throw new InvalidClient('Client authentication failed.');
  }
  return clientRowToClient(row);
}

/** A client that may take part in a new authorization: exists and is not revoked. */
export async function findActiveClient(db: Executor, clientId: string): Promise<Client | undefined> {
  const row = await findClientRowById(db, clientId);
  return row && row.revoked_at === null ? clientRowToClient(row) : undefined;
}

export async function findClient(db: Executor, clientId: string): Promise<Client | undefined> {
  const row = await findClientRowById(db, clientId);
  return row ? clientRowToClient(row) : undefined;
}

export async function listClients(db: Executor, ownerId?: string): Promise<Client[]> {
  return (await listClientRows(db, ownerId)).map(clientRowToClient);
}

/**
 * Revokes a client. From the commit on, no new tokens are issued to it and every token it
 * ever issued fails authentication, because token checks join the client row (RV-03, DD-5).
 * With `ownerId`, only that owner's client may be revoked. Idempotent (RV-07). AU-12: the
 * revocation that takes effect writes `client.revoked` in the owner's log, in its transaction.
 */
export async function revokeClient(
  db: Executor,
  clock: Clock,
  clientId: string,
  ownerId?: string,
  actor?: AuditActor,
): Promise<Client> {
  const row = await findClientRowById(db, clientId);
  if (!row || (ownerId !== undefined && row.owner_id !== ownerId) || Number(row.first_party) === 1) {
    throw new NotFound('No such client.');
  }
  const now = clock.now();
  await inTransaction(db, async (trx) => {
    // RV-07: revoking again changes nothing, and is not logged again.
    if (await markClientRevoked(trx, clientId, now)) {
      await recordClientEvent(trx, actorOrDefault(actor, ownerId), 'client.revoked', row, now);
    }
  });
  return clientRowToClient((await findClientRowById(db, clientId))!);
}

export interface FirstPartyClient {
  id: string;
  secret: string;
  name: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

/**
 * Provisions the portal's own client from configuration: first-party (no consent screen)
 * and PKCE-required (PK-08). Re-running updates its secret and redirect URL.
 */
export async function ensureFirstPartyClient(db: Executor, clock: Clock, spec: FirstPartyClient): Promise<void> {
  const values = {
    name: spec.name,
    redirect_uris: JSON.stringify([spec.redirectUri]),
    post_logout_redirect_uri: spec.postLogoutRedirectUri,
    // SC-01: the portal's own client is the one that may hold `account`; `openid` is no one's default (OI-01).
    scope: formatScope(ACCESS_SCOPES),
  };
  await upsertProvisionedClient(db, {
    id: spec.id,
    owner_id: null,
    ...values,
    description: null,
    client_uri: null,
    policy_uri: null,
    tos_uri: null,
    first_party: 1,
    public: 0,
    id_token_signed_response_alg: 'RS256',
    require_pkce: 1,
    registration: 'registered',
    metadata_expires_at: null,
    logo_uri: null,
    registration_token_hash: null,
    last_used_at: null,
    created_at: clock.now(),
    revoked_at: null,
  });
  // Its one secret, under a fixed id: re-running replaces it (a changed PORTAL_CLIENT_SECRET).
  await upsertProvisionedSecret(db, {
    id: `${IdPrefix.clientSecret}_${spec.id}`,
    client_id: spec.id,
    secret_hash: digest(spec.secret),
    last4: lastFour(spec.secret),
    created_at: clock.now(),
    expires_at: null,
    last_used_at: null,
  });
}
