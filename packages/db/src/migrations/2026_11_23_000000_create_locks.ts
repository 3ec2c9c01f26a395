import type { Kysely } from 'kysely';

/**
 * Short leases shared by every instance (e.g. the portal's single-flight refresh per session
 * when sessions live in the database). A row is held until `expires_at`; an expired row may be
 * taken over by a conditional update.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('locks')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('locks').ifExists().execute();
}
