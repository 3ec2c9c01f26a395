import type { Executor } from '@latchkey/db';

/** The scopes the user has approved for this client (space-delimited), or undefined if never asked. */
export async function findConsentScope(db: Executor, userId: string, clientId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('consents')
    .select('scope')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row?.scope;
}

/** Stores the approved scopes; the caller passes the union with what was approved before. */
export async function upsertConsent(db: Executor, userId: string, clientId: string, scope: string, at: number): Promise<void> {
  await db
    .insertInto('consents')
    .values({ user_id: userId, client_id: clientId, created_at: at, scope })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ scope }))
    .execute();
}
