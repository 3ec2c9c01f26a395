import type { ClientsTable, Executor } from '@latchkey/db';
import { canMatchStoredText } from '../text.ts';

/** What a refetched document may change; created_at, scope and the flags stay as first stored. */
export type MetadataDocumentUpdate = Pick<
  ClientsTable,
  'name' | 'redirect_uris' | 'client_uri' | 'logo_uri' | 'metadata_expires_at'
>;

/**
 * Inserts the client of a document, or refreshes it: one statement, so instances fetching the
 * same document at once cannot race on the insert (the second waits on the first's row lock and
 * updates). A revoked row, or a row that is not a metadata-document client, is left untouched.
 */
export async function upsertMetadataDocumentClientRow(
  db: Executor,
  row: ClientsTable,
  update: MetadataDocumentUpdate,
): Promise<void> {
  await db
    .insertInto('clients')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet(update)
        .where('clients.revoked_at', 'is', null)
        .where('clients.registration', '=', 'metadata_document'),
    )
    .execute();
}

export async function findMetadataDocumentClientRow(db: Executor, id: string): Promise<ClientsTable | undefined> {
  if (!canMatchStoredText(id)) return undefined;
  return db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('registration', '=', 'metadata_document')
    .executeTakeFirst();
}
