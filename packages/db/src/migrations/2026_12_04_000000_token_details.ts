import type { Kysely } from 'kysely';

/**
 * Tokens you can describe, roll and trace (issue 35, TR-*; the migration itself: TR-14).
 * `access_tokens.description`: what a personal access token is for, up to 300 characters, or null.
 * `last_used_ip`, `last_used_user_agent`: where the token was last used, written with
 * `last_used_at` by the API's batched recorder (never a write per request).
 * `replaced_by`: the id of the token a roll made in its place; `rolled_at`: when. A rolled
 * token keeps working until its `expires_at`, which the roll moved to the end of the overlap.
 * Every existing token: no description, used from nowhere known, never rolled.
 */
const COLUMNS = [
  ['description', 'text'],
  ['last_used_ip', 'text'],
  ['last_used_user_agent', 'text'],
  ['rolled_at', 'bigint'],
  ['replaced_by', 'text'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite adds one at a time.
  for (const [column, type] of COLUMNS) {
    await db.schema.alterTable('access_tokens').addColumn(column, type).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [column] of [...COLUMNS].reverse()) {
    await db.schema.alterTable('access_tokens').dropColumn(column).execute();
  }
}
