import type { Executor } from '@latchkey/db';

export async function findConsent(db: Executor, userId: string, clientId: string): Promise<boolean> {
  const row = await db
    .selectFrom('consents')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertConsent(db: Executor, userId: string, clientId: string, at: number): Promise<void> {
  await db
    .insertInto('consents')
    .values({ user_id: userId, client_id: clientId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
    .execute();
}
