import { sql, type Kysely } from 'kysely';

/**
 * Resource indicators (issue 31, RS-*; RFC 8707). `resource_servers`: the APIs operators register
 * beside the Latchkey API, which Latchkey mints tokens for (`resource create` in the CLI); the
 * Latchkey API itself is not a row but the constant audience `latchkey_api`, so a changed API_URL
 * orphans nothing. A grant, its codes and its access tokens carry the audience they were issued
 * for: existing rows, personal access tokens included, are the Latchkey API's (RS-12).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('resource_servers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** Its resource indicator, as registered (absolute, no fragment); compared after URL normalisation. */
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** The scopes its tokens may carry, space-separated (RS-08). */
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  // One live server per URI; a revoked one's URI may be registered again (as a new server, a new audience).
  await db.schema
    .createIndex('resource_servers_live_uri')
    .on('resource_servers')
    .column('uri')
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  for (const table of ['grants', 'authorization_codes', 'access_tokens']) {
    await db.schema
      .alterTable(table)
      .addColumn('audience', 'text', (c) => c.notNull().defaultTo('latchkey_api'))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['access_tokens', 'authorization_codes', 'grants']) {
    await db.schema.alterTable(table).dropColumn('audience').execute();
  }
  await db.schema.dropTable('resource_servers').execute();
}
