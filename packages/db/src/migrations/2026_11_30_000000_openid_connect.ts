import type { Kysely } from 'kysely';

/**
 * OpenID Connect (issue 30, OI-01..OI-14). `signing_keys`: the keys ID tokens are signed with, generated on
 * first start; the private key is sealed (AES-256-GCM under a key derived from SESSION_SECRET), the
 * public one published in the JWKS until every token it signed has expired. An authorization code
 * remembers the request's `nonce` and when the user signed in (`auth_time`), which its ID token
 * carries. A client may register `id_token_signed_response_alg` (RS256 by default, or ES256).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    /** The public JWK, JSON. */
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    /** The private JWK, JSON, sealed. */
    .addColumn('private_jwk_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    /** When it starts signing: published in the JWKS before, so verifiers have fetched it. */
    .addColumn('signs_from', 'bigint', (c) => c.notNull())
    /** When a newer key took over signing; null while it is the newest. */
    .addColumn('retired_at', 'bigint')
    .execute();
  await db.schema.alterTable('authorization_codes').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('auth_time', 'bigint').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('id_token_signed_response_alg', 'text', (c) => c.notNull().defaultTo('RS256'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('id_token_signed_response_alg').execute();
  await db.schema.alterTable('authorization_codes').dropColumn('auth_time').execute();
  await db.schema.alterTable('authorization_codes').dropColumn('nonce').execute();
  await db.schema.dropTable('signing_keys').execute();
}
