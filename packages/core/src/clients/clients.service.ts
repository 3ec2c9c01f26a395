import { constantTimeEqual, digest, generateToken, lastFour, TokenPrefix } from '@latchkey/credentials';
import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { InvalidClient, NotFound, ValidationFailed } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import { clientRowToClient, type Client } from './client.ts';
import {
  findClientRowById,
  insertClient,
  listClientRows,
  markClientRevoked,
  upsertProvisionedClient,
} from './clients.repository.ts';
import { validateRedirectUriForRegistration } from './redirect-uri.ts';
import { validateName } from '../text.ts';

export interface NewClient {
  ownerId: string;
  name: string;
  redirectUri: string;
  /** Optional; validated like the redirect URL (absolute, https or loopback http, no fragment). */
  postLogoutRedirectUri?: string | undefined;
  requirePkce?: boolean;
}

export interface CreatedClient {
  client: Client;
  /** Shown once; only its SHA-256 digest and last four characters are kept. */
  clientSecret: string;
}

export async function createClient(db: Executor, clock: Clock, input: NewClient): Promise<CreatedClient> {
  const name = validateName(input.name, 'client name');
  // Only the service's own clients speak in its name: a third-party app may not look like the
  // portal or carry the product's name on the consent page (HD-04).
  if (/latchkey/i.test(name.normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, ''))) {
    throw new ValidationFailed('name', 'A client name may not contain “Latchkey”: it is the service’s own.');
  }
  const redirectUri = validateRedirectUriForRegistration(input.redirectUri.trim());
  const postLogout = input.postLogoutRedirectUri?.trim() ? input.postLogoutRedirectUri.trim() : undefined;
  const postLogoutRedirectUri =
    postLogout === undefined ? null : validateRedirectUriForRegistration(postLogout, 'post_logout_redirect_uri');
  const clientSecret = generateToken(TokenPrefix.clientSecret);
  const row = {
    id: newId(IdPrefix.client),
    owner_id: input.ownerId,
    name,
    redirect_uri: redirectUri,
    post_logout_redirect_uri: postLogoutRedirectUri,
    secret_hash: digest(clientSecret),
    secret_last4: lastFour(clientSecret),
    first_party: 0,
    require_pkce: input.requirePkce ? 1 : 0,
    created_at: clock.now(),
    revoked_at: null,
  };
  await insertClient(db, row);
  return { client: clientRowToClient(row), clientSecret };
}

/**
 * Client authentication (RFC 6749 §2.3.1). Unknown client, wrong secret and revoked client
 * fail alike, with the same work done, so the answer does not tell which (CA-02).
 */
export async function authenticateClient(db: Executor, clientId: string, clientSecret: string): Promise<Client> {
  const row = await findClientRowById(db, clientId);
  // Every presented secret is hashed, whatever its shape: operators may configure the portal's
  // secret themselves (PORTAL_CLIENT_SECRET), and the work done must not depend on the input.
  const matches = constantTimeEqual(digest(clientSecret), row?.secret_hash ?? 'x'.repeat(64));
  if (!row || !matches || row.revoked_at !== null) {
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
 * With `ownerId`, only that owner's client may be revoked. Idempotent (RV-07).
 */
export async function revokeClient(db: Executor, clock: Clock, clientId: string, ownerId?: string): Promise<Client> {
  const row = await findClientRowById(db, clientId);
  if (!row || (ownerId !== undefined && row.owner_id !== ownerId) || Number(row.first_party) === 1) {
    throw new NotFound('No such client.');
  }
  await markClientRevoked(db, clientId, clock.now());
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
    redirect_uri: spec.redirectUri,
    post_logout_redirect_uri: spec.postLogoutRedirectUri,
    secret_hash: digest(spec.secret),
    secret_last4: lastFour(spec.secret),
  };
  await upsertProvisionedClient(db, {
    id: spec.id,
    owner_id: null,
    ...values,
    first_party: 1,
    require_pkce: 1,
    created_at: clock.now(),
    revoked_at: null,
  });
}
