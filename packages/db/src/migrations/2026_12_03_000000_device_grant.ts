import type { Kysely } from 'kysely';

/**
 * The device authorization grant (issue 33, DV-*; RFC 8628; the migration itself: DV-29).
 * `clients.device_grant`: the client opted in (`grant_types` holds the device code grant); every
 * existing client has not.
 * `device_authorizations`: one row per POST /oauth/device_authorization, found by the SHA-256
 * digest of its device code (the device polling) or of its normalised user code (the person at
 * /device); neither code is stored in plaintext. `status` moves pending → approved | denied, and
 * approved → redeemed exactly once; `user_id` is the one user who decided. `interval_seconds`
 * grows by 5 with each `slow_down`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('device_grant', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('device_authorizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('auth_time', 'bigint')
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_authorizations').execute();
  await db.schema.alterTable('clients').dropColumn('device_grant').execute();
}
