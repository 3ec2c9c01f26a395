import type { ClientSecretsTable, ClientsTable, Executor } from '@latchkey/db';
import { canMatchStoredText } from '../text.ts';

export async function insertClientSecret(db: Executor, row: ClientSecretsTable): Promise<void> {
  await db.insertInto('client_secrets').values(row).execute();
}

/** Every secret of the client, expired ones included, oldest first. */
export async function listClientSecretRows(db: Executor, clientId: string): Promise<ClientSecretsTable[]> {
  // A client_id no stored id can equal (a NUL, which PostgreSQL refuses in text) has no secrets: AC-10, never a 500.
  if (!canMatchStoredText(clientId)) return [];
  return db
    .selectFrom('client_secrets')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * A client's row and its secrets in one read, for client authentication (every call to the
 * token, introspection and revocation endpoints): nothing for an unknown id, no secrets for a
 * client without any. One statement where two were: each is a read transaction of its own.
 */
export async function findClientWithSecrets(
  db: Executor,
  clientId: string,
): Promise<{ client: ClientsTable | undefined; secrets: ClientSecretsTable[] }> {
  if (!canMatchStoredText(clientId)) return { client: undefined, secrets: [] };
  const rows = await db
    .selectFrom('clients as c')
    .leftJoin('client_secrets as s', 's.client_id', 'c.id')
    .selectAll('c')
    .select([
      's.id as secret_id',
      's.secret_hash as secret_hash',
      's.last4 as secret_last4',
      's.created_at as secret_created_at',
      's.expires_at as secret_expires_at',
      's.last_used_at as secret_last_used_at',
    ])
    .where('c.id', '=', clientId)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
  const [first] = rows;
  if (!first) return { client: undefined, secrets: [] };
  const {
    secret_id: _id,
    secret_hash: _hash,
    secret_last4: _last4,
    secret_created_at: _created,
    secret_expires_at: _expires,
    secret_last_used_at: _used,
    ...client
  } = first;
  const secrets = rows.flatMap((row): ClientSecretsTable[] =>
    row.secret_id === null
      ? []
      : [
          {
            id: row.secret_id,
            client_id: clientId,
            secret_hash: row.secret_hash!,
            last4: row.secret_last4!,
            created_at: row.secret_created_at!,
            expires_at: row.secret_expires_at,
            last_used_at: row.secret_last_used_at,
          },
        ],
  );
  return { client, secrets };
}

export async function deleteClientSecretRow(db: Executor, clientId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('client_secrets')
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteExpiredClientSecrets(db: Executor, clientId: string, now: number): Promise<void> {
  await db
    .deleteFrom('client_secrets')
    .where('client_id', '=', clientId)
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .execute();
}

/** Sets when the client's other live secrets stop working, unless one already stops sooner. */
export async function expireOtherSecrets(db: Executor, clientId: string, keepId: string, at: number): Promise<void> {
  await db
    .updateTable('client_secrets')
    .set({ expires_at: at })
    .where('client_id', '=', clientId)
    .where('id', '!=', keepId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .execute();
}

/** SR-05: how often a secret's last use is written at the most (authenticateClient skips the write within it). */
export const SECRET_TOUCH_INTERVAL_MS = 60_000;

/** SR-05: last used, written at most once a minute per secret, so a busy app does not write on every request. */
export async function touchClientSecret(db: Executor, id: string, now: number): Promise<void> {
  await db
    .updateTable('client_secrets')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - SECRET_TOUCH_INTERVAL_MS)]))
    .execute();
}

/**
 * The portal's own client's one secret, from configuration: a fixed id, so instances starting
 * together upsert the same row rather than each adding one.
 */
export async function upsertProvisionedSecret(db: Executor, row: ClientSecretsTable): Promise<void> {
  const { secret_hash, last4 } = row;
  await db
    .insertInto('client_secrets')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ secret_hash, last4 }))
    .execute();
}
