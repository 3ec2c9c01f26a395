import type { Kysely } from 'kysely';

/**
 * Two marks that keep the refresh-token reuse grace window (DD-4) from forking a grant (HD-07):
 * `grace_reused_at`, when this consumed token was honoured again inside the window (at most once);
 * `used_child_id`, the one token rotated from it that has been redeemed. A second child (a
 * grace-forked sibling) can never be redeemed once one is, and the parent can no longer be
 * honoured again: both are reuse, and revoke the family. Each is set by one conditional update.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('grace_reused_at', 'bigint').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('used_child_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('used_child_id').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('grace_reused_at').execute();
}
