import { MAX_CLIENT_SECRETS } from '@latchkey/contracts';
import { constantTimeEqual, digest, generateToken, lastFour, TokenPrefix } from '@latchkey/credentials';
import type { ClientSecretsTable, ClientsTable, Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { Conflict, NotFound, SecretLimitReached } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import { findClientRowById } from './clients.repository.ts';
import { actorOrDefault, type AuditActor } from '../audit/security-events.ts';
import { recordClientEvent } from './client-events.ts';
import {
  deleteClientSecretRow,
  deleteExpiredClientSecrets,
  expireOtherSecrets,
  insertClientSecret,
  listClientSecretRows,
} from './client-secrets.repository.ts';

/** One of a client's secrets as the account API and the CLI list it: never the secret (TS-04). */
export interface ClientSecret {
  id: string;
  last4: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

export interface CreatedClientSecret {
  secret: ClientSecret;
  /** Shown once; only its SHA-256 digest and last four characters are kept. */
  clientSecret: string;
  /** The client's live secrets after it, the new one included. */
  secrets: ClientSecret[];
}

function rowToSecret(row: ClientSecretsTable): ClientSecret {
  return {
    id: row.id,
    last4: row.last4,
    createdAt: Number(row.created_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

const isLive = (row: ClientSecretsTable, now: number): boolean =>
  row.expires_at === null || Number(row.expires_at) > now;

/** A new secret row: `lks_` format (DD-3), stored as its digest. */
export function newSecretRow(clientId: string, now: number): { row: ClientSecretsTable; clientSecret: string } {
  const clientSecret = generateToken(TokenPrefix.clientSecret);
  return {
    clientSecret,
    row: {
      id: newId(IdPrefix.clientSecret),
      client_id: clientId,
      secret_hash: digest(clientSecret),
      last4: lastFour(clientSecret),
      created_at: now,
      expires_at: null,
      last_used_at: null,
    },
  };
}

/**
 * SR-08: the client whose secrets are managed: the owner's (anyone else's, and the service's
 * own, are NotFound, as for edits), confidential and not revoked (Conflict otherwise).
 */
async function managedClient(db: Executor, clientId: string, ownerId: string | undefined): Promise<ClientsTable> {
  const row = await findClientRowById(db, clientId);
  if (!row || (ownerId !== undefined && row.owner_id !== ownerId) || Number(row.first_party) === 1) {
    throw new NotFound('No such client.');
  }
  if (row.revoked_at !== null) throw new Conflict('This client is revoked; its secrets cannot change.');
  if (Number(row.public) === 1) throw new Conflict('This is a public client: it has no secrets.');
  return row;
}

/**
 * Runs `work` in one transaction behind the client row's lock, once the client is one whose
 * secrets may change (SR-08). The no-op update takes the row's lock on PostgreSQL and the write
 * lock on SQLite, so concurrent generations and deletions of one client's secrets run one after
 * the other (SR-02, SR-07), as HD-14's caps do.
 */
async function withManagedClient<T>(
  db: Executor,
  clientId: string,
  ownerId: string | undefined,
  work: (trx: Executor, client: ClientsTable) => Promise<T>,
): Promise<T> {
  const run = async (trx: Executor): Promise<T> => {
    await trx
      .updateTable('clients')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', clientId)
      .execute();
    return work(trx, await managedClient(trx, clientId, ownerId));
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** SR-05: the client's live secrets, oldest first; expired ones are not listed (they no longer work). */
export async function listClientSecrets(
  db: Executor,
  clock: Clock,
  clientId: string,
  ownerId?: string,
): Promise<ClientSecret[]> {
  const row = await findClientRowById(db, clientId);
  if (!row || (ownerId !== undefined && row.owner_id !== ownerId) || Number(row.first_party) === 1) {
    throw new NotFound('No such client.');
  }
  const now = clock.now();
  return (await listClientSecretRows(db, clientId)).filter((secret) => isLive(secret, now)).map(rowToSecret);
}

/**
 * SR-01: generates a new secret, shown once. The one in use keeps working until it is deleted,
 * or until `oldSecretExpiresInMs` from now when given (SR-03). SR-02: at most MAX_CLIENT_SECRETS
 * live at once; a third is refused and nothing is stored. The count and the insert run in one
 * transaction behind the client row's lock (as HD-14's caps), so concurrent requests cannot both
 * pass at one; requests with the secret in use keep working meanwhile (SR-07). AU-12:
 * `client.secret_created` (the secret's id, never its value: AU-03) goes in the owner's log in
 * the same transaction (AU-02).
 */
export async function createClientSecret(
  db: Executor,
  clock: Clock,
  clientId: string,
  ownerId: string | undefined,
  options: { oldSecretExpiresInMs?: number | undefined } = {},
  actor?: AuditActor,
): Promise<CreatedClientSecret> {
  return withManagedClient(db, clientId, ownerId, async (trx, client) => {
    const now = clock.now();
    await deleteExpiredClientSecrets(trx, clientId, now);
    const existing = await listClientSecretRows(trx, clientId);
    if (existing.length >= MAX_CLIENT_SECRETS) {
      throw new SecretLimitReached(
        `This client already has ${MAX_CLIENT_SECRETS} secrets, the most it may have. Delete the one you no longer use, then generate a new one.`,
      );
    }
    // Listed oldest first by created_at: a secret generated in the same millisecond as the one in
    // use is dated a millisecond after it, so the order never falls to the random ids.
    const latest = Math.max(0, ...existing.map((secret) => Number(secret.created_at)));
    const { row, clientSecret } = newSecretRow(clientId, Math.max(now, latest + 1));
    await insertClientSecret(trx, row);
    if (options.oldSecretExpiresInMs !== undefined) {
      await expireOtherSecrets(trx, clientId, row.id, now + options.oldSecretExpiresInMs);
    }
    await recordClientEvent(trx, actorOrDefault(actor, ownerId), 'client.secret_created', client, now, row.id);
    const secrets = (await listClientSecretRows(trx, clientId)).map(rowToSecret);
    return { secret: rowToSecret(row), clientSecret, secrets };
  });
}

/**
 * SR-04: deletes a secret; the next request with it gets `invalid_client`. The last live secret
 * cannot be deleted (the client would have none; revoke the client instead), and behind the
 * client row's lock two concurrent deletes cannot both pass that check (SR-07). Returns the live
 * secrets left. AU-12: `client.secret_deleted` goes in the owner's log in the same transaction.
 */
export async function deleteClientSecret(
  db: Executor,
  clock: Clock,
  clientId: string,
  secretId: string,
  ownerId?: string,
  actor?: AuditActor,
): Promise<ClientSecret[]> {
  return withManagedClient(db, clientId, ownerId, async (trx, client) => {
    const now = clock.now();
    const live = (await listClientSecretRows(trx, clientId)).filter((row) => isLive(row, now));
    if (!live.some((row) => row.id === secretId)) throw new NotFound('No such secret.');
    if (live.length === 1) {
      throw new Conflict(
        'This is the client’s only secret and cannot be deleted. Generate a new one first, or revoke the client.',
      );
    }
    await deleteClientSecretRow(trx, clientId, secretId);
    await recordClientEvent(trx, actorOrDefault(actor, ownerId), 'client.secret_deleted', client, now, secretId);
    return live.filter((row) => row.id !== secretId).map(rowToSecret);
  });
}

/** A digest no presented secret can match: what an empty slot is compared against. */
const NO_SECRET = 'x'.repeat(64);

/**
 * SR-06: which of the client's secrets `presented` is, if any. Every slot (MAX_CLIENT_SECRETS,
 * padded with NO_SECRET) is compared in constant time, whichever matches and however many the
 * client has, so the time taken does not tell which secret matched or how many exist. Expired
 * secrets are compared too and then refused (SR-03).
 */
export function matchSecret(
  rows: readonly ClientSecretsTable[],
  presented: string,
  now: number,
  equalDigests: (a: string, b: string) => boolean = constantTimeEqual,
): ClientSecretsTable | undefined {
  const presentedDigest = digest(presented);
  let matched: ClientSecretsTable | undefined;
  for (let slot = 0; slot < Math.max(MAX_CLIENT_SECRETS, rows.length); slot += 1) {
    const row = rows[slot];
    const equal = equalDigests(presentedDigest, row?.secret_hash ?? NO_SECRET);
    if (equal && row && isLive(row, now)) matched = row;
  }
  return matched;
}
