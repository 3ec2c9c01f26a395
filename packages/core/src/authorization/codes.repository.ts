import type { AuthorizationCodesTable, Executor } from '@latchkey/db';

export async function insertAuthorizationCode(db: Executor, row: AuthorizationCodesTable): Promise<void> {
  await db.insertInto('authorization_codes').values(row).execute();
}

export async function findAuthorizationCodeByHash(
  db: Executor,
  codeHash: string,
): Promise<AuthorizationCodesTable | undefined> {
  return db.selectFrom('authorization_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/**
 * The single atomic step that makes a code single-use (AC-04, R-02 across servers): a conditional update, never
 * read-then-write. Returns false when another request consumed it first.
 */
export async function consumeAuthorizationCode(db: Executor, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('authorization_codes')
    .set({ consumed_at: at })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** When the user signed in for the grant's code (ms), or null: a grant is made with one code (OI-06). */
export async function findAuthTimeOfGrant(db: Executor, grantId: string): Promise<number | null> {
  const row = await db
    .selectFrom('authorization_codes')
    .select('auth_time')
    .where('grant_id', '=', grantId)
    .executeTakeFirst();
  return row?.auth_time === null || row?.auth_time === undefined ? null : Number(row.auth_time);
}
