import type { Kysely } from 'kysely';

/**
 * Clients that can be edited (issue 19): several redirect URLs instead of one, and the details a
 * consent page shows. `redirect_uris` holds a JSON array of strings, compared byte for byte as
 * registered; it replaces `redirect_uri`, whose value becomes its only element. The details
 * carry RFC 7591 §2's names: `client_uri` (homepage), `policy_uri`, `tos_uri`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  for (const column of ['description', 'client_uri', 'policy_uri', 'tos_uri']) {
    await db.schema.alterTable('clients').addColumn(column, 'text').execute();
  }
  const rows: Array<{ id: string; redirect_uri: string }> = await db
    .selectFrom('clients')
    .select(['id', 'redirect_uri'])
    .execute();
  for (const row of rows) {
    await db
      .updateTable('clients')
      .set({ redirect_uris: JSON.stringify([row.redirect_uri]) })
      .where('id', '=', row.id)
      .execute();
  }
  await db.schema.alterTable('clients').dropColumn('redirect_uri').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('redirect_uri', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const rows: Array<{ id: string; redirect_uris: string }> = await db
    .selectFrom('clients')
    .select(['id', 'redirect_uris'])
    .execute();
  for (const row of rows) {
    const [first = ''] = JSON.parse(row.redirect_uris) as string[];
    await db.updateTable('clients').set({ redirect_uri: first }).where('id', '=', row.id).execute();
  }
  for (const column of ['redirect_uris', 'description', 'client_uri', 'policy_uri', 'tos_uri']) {
    await db.schema.alterTable('clients').dropColumn(column).execute();
  }
}
