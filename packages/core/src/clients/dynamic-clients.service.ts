import { parseScope, SCOPES, type Scope } from '@latchkey/contracts';
import { constantTimeEqual, digest, generateToken, hasTokenShape, TokenPrefix } from '@latchkey/credentials';
import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { InvalidToken, ValidationFailed } from '../errors.ts';
import { clientRowToClient, type Client } from './client.ts';
import {
  deleteDynamicClientRow,
  deleteDynamicClientsUnusedSince,
  findClientRowById,
  listDynamicClientIdsUnusedSince,
  markDynamicClientUsed,
} from './clients.repository.ts';
import { createClient } from './clients.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** DR-15: a dynamic client that got no tokens for this long (nor was registered in it) is deleted. */
export const DYNAMIC_CLIENT_UNUSED_DAYS = 30;

/** DR-15: how many unused clients one registration deletes at most, so that none waits on a long sweep. */
const PRUNE_BATCH = 100;

/** DR-16: last_used_at is written at most this often per client: the 30 days need no finer clock. */
const LAST_USED_INTERVAL_MS = DAY_MS;

/** What a client that registers itself may say about itself (RFC 7591 §2), already read from the wire. */
export interface DynamicClientRequest {
  redirectUris: readonly string[];
  /** `client_name`; a generic name when left out. */
  name?: string | undefined;
  /** `client_uri`: its homepage. */
  clientUri?: string | undefined;
  /** `token_endpoint_auth_method` `none`: no secret, PKCE required (PC-01, PC-02). */
  public: boolean;
  /** RFC 7591 `scope`, space-separated; every third-party scope when left out. */
  scope?: string | undefined;
  /** DV-26: `grant_types` listed the device grant (RFC 8628); off when left out. */
  deviceGrant?: boolean | undefined;
}

export interface RegisteredDynamicClient {
  client: Client;
  /** Shown once, to a confidential client; only its digest is kept. */
  clientSecret: string | undefined;
  /** RFC 7592 registration access token, shown once; only its digest is kept (DR-17). */
  registrationAccessToken: string;
}

/** The name a client that gives none is shown under; the consent page says it registered itself. */
const UNNAMED = 'Unnamed application';

/**
 * RFC 7591 `scope`: the scopes the client may ask for. `openid` is any client's (OI-01) and is
 * not kept; the rest must be third-party scopes (SC-03), checked by createClient.
 */
function clientScopes(scope: string | undefined): Scope[] | undefined {
  if (scope === undefined) return undefined;
  const parsed = parseScope(scope);
  if (!parsed.ok) throw new ValidationFailed('scope', 'The scope names a scope that is unknown or not supported.');
  return parsed.scopes.filter((name) => !SCOPES[name].signIn);
}

/**
 * DR-03, DR-04, DR-09, DR-10: registers a client (public or confidential) that asked for itself (RFC 7591 §3.1), validated as the
 * portal validates (createClient: name HD-04, redirect URLs RU-09 and CE-02, private-use schemes
 * for public clients only PC-05, links), owned by no one and marked `dynamic`. First deletes a
 * batch of dynamic clients unused for DYNAMIC_CLIENT_UNUSED_DAYS (DR-15), so the sweep needs no
 * scheduler and runs only as often as clients register (which is rate limited).
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2.1
 */
export async function registerDynamicClient(
  db: Executor,
  clock: Clock,
  request: DynamicClientRequest,
): Promise<RegisteredDynamicClient> {
  await pruneUnusedDynamicClients(db, clock);
  const registrationAccessToken = generateToken(TokenPrefix.registrationAccessToken);
  const name = request.name === undefined || request.name.trim() === '' ? UNNAMED : request.name;
  const { client, clientSecret } = await createClient(db, clock, {
    ownerId: null,
    name,
    redirectUris: request.redirectUris,
    clientUri: request.clientUri ?? null,
    public: request.public,
    scopes: clientScopes(request.scope),
    registration: 'dynamic',
    registrationTokenHash: digest(registrationAccessToken),
    deviceGrant: request.deviceGrant === true,
  });
  return { client, clientSecret, registrationAccessToken };
}

/**
 * RFC 7592 §2: the dynamic client this registration access token manages. A malformed token, an
 * unknown client, a client that is not dynamic or is revoked, and another client's token all
 * fail alike (InvalidToken), with the digests compared in constant time (DR-13).
 */
async function authorizedDynamicClient(db: Executor, clientId: string, token: string): Promise<Client> {
  const refuse = () => new InvalidToken('The registration access token is invalid for this client.');
  if (!hasTokenShape(token, TokenPrefix.registrationAccessToken)) throw refuse();
  const row = await findClientRowById(db, clientId);
  // Compared whether or not the client exists, against a digest no token has when it does not.
  const stored = row?.registration === 'dynamic' ? row.registration_token_hash : null;
  const matches = constantTimeEqual(stored ?? '', digest(token));
  if (!row || stored === null || !matches || row.revoked_at !== null) throw refuse();
  return clientRowToClient(row);
}

/**
 * RFC 7592 §2.1: a dynamic client reads its registration with its registration access token
 * (DR-11). The secret is never part of it: only its digest is kept.
 * @see https://www.rfc-editor.org/rfc/rfc7592#section-2.1
 */
export async function readDynamicClient(db: Executor, clientId: string, token: string): Promise<Client> {
  return authorizedDynamicClient(db, clientId, token);
}

/**
 * RFC 7592 §2.3: a dynamic client deletes itself with its registration access token (DR-12):
 * the row goes, and with it (FKs cascade) its grants, codes, tokens, consents and secrets, so
 * its tokens stop working at once and it can sign no one in again.
 * @see https://www.rfc-editor.org/rfc/rfc7592#section-2.3
 */
export async function deleteDynamicClient(db: Executor, clientId: string, token: string): Promise<void> {
  await authorizedDynamicClient(db, clientId, token);
  // The digest again in the delete: a client deleted meanwhile (pruned, or a concurrent delete) is the same refusal.
  if (!(await deleteDynamicClientRow(db, clientId, digest(token)))) {
    throw new InvalidToken('The registration access token is invalid for this client.');
  }
}

/**
 * DR-15: deletes up to one batch of dynamic clients that got no tokens, and were not
 * registered, in the last DYNAMIC_CLIENT_UNUSED_DAYS days. Returns how many were deleted.
 */
export async function pruneUnusedDynamicClients(db: Executor, clock: Clock, limit = PRUNE_BATCH): Promise<number> {
  const cutoff = clock.now() - DYNAMIC_CLIENT_UNUSED_DAYS * DAY_MS;
  const ids = await listDynamicClientIdsUnusedSince(db, cutoff, limit);
  return deleteDynamicClientsUnusedSince(db, ids, cutoff);
}

/**
 * DR-16: a client got tokens (the code exchange or a refresh; issueTokenPair calls this in its
 * transaction): a dynamic client's last use is recorded, at most once a day. One update keyed
 * on the client's id, which matches no row for any other kind of client.
 */
export async function recordDynamicClientUse(db: Executor, clientId: string, at: number): Promise<void> {
  await markDynamicClientUsed(db, clientId, at, LAST_USED_INTERVAL_MS);
}
