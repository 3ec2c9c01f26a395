import { sql, type Kysely } from 'kysely';

/** The http(s) origins of redirect URLs, each once (as core's cors-origins.ts computes them today). */
function originsOf(uris: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const uri of uris) {
    try {
      const url = new URL(uri);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    } catch {
      // Not a URL with an origin: nothing a browser could call from.
    }
  }
  return [...origins];
}

/**
 * Issue 29. A client may be public (PC-01: no secret, PKCE required), and a confidential client
 * holds its secrets in `client_secrets`, at most two live at once (SR-02), so one can be rolled
 * without downtime. Each existing client's one secret moves there as it was: same digest, same
 * last four characters, no expiry, so every app keeps working (SR-10). `client_origins` lists the
 * origins of each third-party client's redirect URLs: what CORS allows (PC-07), looked up by its
 * primary key rather than by scanning every client's URLs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('client_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('client_secrets_client_id_idx').on('client_secrets').column('client_id').execute();
  await db
    .insertInto('client_secrets')
    .columns(['id', 'client_id', 'secret_hash', 'last4', 'created_at'])
    .expression(
      db
        .selectFrom('clients')
        .select([
          sql<string>`'cs_' || id`.as('id'),
          'id as client_id',
          'secret_hash',
          'secret_last4 as last4',
          'created_at',
        ]),
    )
    .execute();
  await db.schema
    .createTable('client_origins')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('client_origins_pk', ['origin', 'client_id'])
    .execute();
  await db.schema.createIndex('client_origins_client_id_idx').on('client_origins').column('client_id').execute();
  const clients = await db.selectFrom('clients').select(['id', 'redirect_uris']).where('first_party', '=', 0).execute();
  for (const client of clients) {
    const origins = originsOf(JSON.parse(client.redirect_uris as string) as string[]);
    if (origins.length > 0) {
      await db
        .insertInto('client_origins')
        .values(origins.map((origin) => ({ origin, client_id: client.id })))
        .execute();
    }
  }
  await db.schema.alterTable('clients').dropColumn('secret_hash').execute();
  await db.schema.alterTable('clients').dropColumn('secret_last4').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('secret_hash', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('secret_last4', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // The oldest live secret is the one the old schema keeps; a public client gets one nobody knows.
  const secrets = await db
    .selectFrom('client_secrets')
    .select(['client_id', 'secret_hash', 'last4'])
    .orderBy('created_at', 'desc')
    .execute();
  for (const secret of secrets) {
    await db
      .updateTable('clients')
      .set({ secret_hash: secret.secret_hash, secret_last4: secret.last4 })
      .where('id', '=', secret.client_id)
      .execute();
  }
  await db.schema.dropTable('client_origins').execute();
  await db.schema.dropTable('client_secrets').execute();
  await db.schema.alterTable('clients').dropColumn('public').execute();
}
