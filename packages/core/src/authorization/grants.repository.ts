import type { Executor, GrantsTable } from '@latchkey/db';

export async function insertGrant(db: Executor, row: GrantsTable): Promise<void> {
  await db.insertInto('grants').values(row).execute();
}

/**
 * Revokes a whole token family: the access and refresh tokens issued from one authorization
 * stop working because every check joins the grant row (DD-4, RT-02, AC-02).
 */
export async function markGrantRevoked(db: Executor, grantId: string, at: number): Promise<void> {
  await db.updateTable('grants').set({ revoked_at: at }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
}
