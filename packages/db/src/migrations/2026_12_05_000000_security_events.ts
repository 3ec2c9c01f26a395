import type { Kysely } from 'kysely';

/**
 * The security log and leaked-credential revocation (issue 36, AU-*, LK-*; the migration itself: AU-09).
 * `security_events`: append-only, one row per security event of a user's account, written in the
 * transaction of what it records. `user_id`: whose log it is in (the account acted on); `actor`:
 * who acted (`user`, `operator`, `reporter` for a leak report, `system`), `actor_id` the acting
 * user when it was one; `ip`, `user_agent` of the request; `target_type`, `target_id`: what was
 * acted on (ids, never a secret); `outcome`: `success` or `failure`. Deleting the user deletes
 * their log with them.
 * `client_secrets_secret_hash_idx`: a reported secret is found by its digest (LK-02).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('security_events_user_id_created_at_idx')
    .on('security_events')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('security_events_created_at_idx').on('security_events').column('created_at').execute();
  await db.schema.createIndex('client_secrets_secret_hash_idx').on('client_secrets').column('secret_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('client_secrets_secret_hash_idx').execute();
  await db.schema.dropTable('security_events').execute();
}
