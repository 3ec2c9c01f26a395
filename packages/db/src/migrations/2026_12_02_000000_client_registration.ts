import type { Kysely } from 'kysely';

/**
 * Clients that register themselves (issue 32, CM-* and DR-*; CM-20). `clients.registration` says how a
 * client came to be: `registered` (the portal, the CLI, the provisioned portal client; every
 * existing row), `metadata_document` (its id is the https URL of its client ID metadata
 * document, fetched again once `metadata_expires_at` has passed) or `dynamic` (RFC 7591; managed
 * with a registration access token of which only the SHA-256 digest is kept, and removed after
 * 30 days unused: `last_used_at`). `blocked_client_hosts`: hosts whose metadata documents an
 * operator refused. `registration_tokens`: the initial access tokens that open registration when
 * DYNAMIC_CLIENT_REGISTRATION=token, digests only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('registration', 'text', (c) => c.notNull().defaultTo('registered'))
    .execute();
  await db.schema.alterTable('clients').addColumn('metadata_expires_at', 'bigint').execute();
  await db.schema.alterTable('clients').addColumn('logo_uri', 'text').execute();
  await db.schema.alterTable('clients').addColumn('registration_token_hash', 'text').execute();
  await db.schema.alterTable('clients').addColumn('last_used_at', 'bigint').execute();
  await db.schema
    .createTable('blocked_client_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('registration_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('registration_tokens').execute();
  await db.schema.dropTable('blocked_client_hosts').execute();
  for (const column of ['last_used_at', 'registration_token_hash', 'logo_uri', 'metadata_expires_at', 'registration']) {
    await db.schema.alterTable('clients').dropColumn(column).execute();
  }
}
