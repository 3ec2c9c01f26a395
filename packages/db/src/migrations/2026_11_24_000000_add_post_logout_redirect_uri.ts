import type { Kysely } from 'kysely';

/**
 * Where a client may send the browser after signing the user out (OpenID RP-Initiated Logout
 * 1.0 §3, `post_logout_redirect_uri`). Null: the client registered none, and the end-session
 * endpoint never redirects for it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('post_logout_redirect_uri', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('post_logout_redirect_uri').execute();
}
