import type { Kysely } from 'kysely';

/**
 * The refresh token each one was rotated from (null for the first of a grant), so the reuse grace
 * window (DD-4) can tell a just-rotated token from an older generation: a token is honoured
 * again only while none of its successors has been rotated in turn.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('parent_id', 'text').execute();
  await db.schema.createIndex('refresh_tokens_parent_id_idx').on('refresh_tokens').column('parent_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('refresh_tokens_parent_id_idx').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('parent_id').execute();
}
