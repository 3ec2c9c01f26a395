import type { Executor, ResourceServersTable } from '@latchkey/db';
import { canMatchStoredText } from '../text.ts';

export async function insertResourceServer(db: Executor, row: ResourceServersTable): Promise<void> {
  await db.insertInto('resource_servers').values(row).execute();
}

export async function findResourceServerRowById(db: Executor, id: string): Promise<ResourceServersTable | undefined> {
  if (!canMatchStoredText(id)) return undefined;
  return db.selectFrom('resource_servers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The live server holding this (normalised) URI: one at most (a partial unique index). */
export async function findLiveResourceServerRowByUri(
  db: Executor,
  uri: string,
): Promise<ResourceServersTable | undefined> {
  if (!canMatchStoredText(uri)) return undefined;
  return db
    .selectFrom('resource_servers')
    .selectAll()
    .where('uri', '=', uri)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function listResourceServerRows(db: Executor): Promise<ResourceServersTable[]> {
  return db.selectFrom('resource_servers').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** Sets revoked_at once; a second revocation keeps the first time. */
export async function markResourceServerRevoked(db: Executor, id: string, at: number): Promise<void> {
  await db
    .updateTable('resource_servers')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * RS-09: ends everything issued for an audience. Grants and access tokens are revoked (a refresh
 * token dies with its grant: the refresh reads the grant); a code not yet exchanged is spent, so
 * exchanging it now is a replay (invalid_grant). Each a conditional update that keeps an earlier
 * time, so it may run again.
 */
export async function revokeEverythingOfAudience(db: Executor, audience: string, at: number): Promise<void> {
  const ends = [
    ['grants', 'revoked_at'],
    ['access_tokens', 'revoked_at'],
    ['authorization_codes', 'consumed_at'],
  ] as const;
  for (const [table, column] of ends) {
    await db
      .updateTable(table)
      .set({ [column]: at })
      .where('audience', '=', audience)
      .where(column, 'is', null)
      .execute();
  }
}
