import type { Kysely } from 'kysely';

/**
 * Scopes (SC-01..): what each client may ask for by default, what a user granted each client
 * (remembered per scope in `consents`, held by the grant and its authorization code), and what
 * each access token carries (an OAuth token's may be narrower than its grant's after a refresh;
 * a personal access token's is chosen when it is created). Space-delimited in registry order.
 *
 * SC-10: what existed keeps what it could do: every third-party scope (`profile email`), plus
 * `account` for the portal's own (first-party) client and the grants and tokens issued to it.
 */
const THIRD_PARTY = 'profile email';
const FIRST_PARTY = 'profile email account';

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['clients', 'consents', 'grants', 'authorization_codes', 'access_tokens']) {
    await db.schema
      .alterTable(table)
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo(THIRD_PARTY))
      .execute();
  }
  const firstPartyClients = db.selectFrom('clients').select('id').where('first_party', '=', 1);
  await db.updateTable('clients').set({ scope: FIRST_PARTY }).where('first_party', '=', 1).execute();
  for (const table of ['consents', 'grants', 'authorization_codes', 'access_tokens']) {
    await db
      .updateTable(table)
      .set({ scope: FIRST_PARTY })
      .where('client_id', 'in', firstPartyClients)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['access_tokens', 'authorization_codes', 'grants', 'consents', 'clients']) {
    await db.schema.alterTable(table).dropColumn('scope').execute();
  }
}
