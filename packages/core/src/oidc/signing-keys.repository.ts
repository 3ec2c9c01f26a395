import type { Executor, SigningKeysTable } from '@latchkey/db';

export async function insertSigningKey(db: Executor, row: SigningKeysTable): Promise<void> {
  await db.insertInto('signing_keys').values(row).execute();
}

/** Every key, newest first. */
export async function listSigningKeyRows(db: Executor): Promise<SigningKeysTable[]> {
  return db.selectFrom('signing_keys').selectAll().orderBy('signs_from', 'desc').orderBy('kid').execute();
}

/**
 * Marks the keys of `alg` other than `kid` as retired from `at` on, unless they retire sooner
 * already: an emergency rotation (no delay) during an earlier one's delay ends the earlier
 * keys now, not when that delay would have.
 */
export async function retireOtherKeys(db: Executor, alg: string, kid: string, at: number): Promise<void> {
  await db
    .updateTable('signing_keys')
    .set({ retired_at: at })
    .where('alg', '=', alg)
    .where('kid', '!=', kid)
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', at)]))
    .execute();
}

/** Keys whose every token has expired (retired at or before `before`): no longer published, as SigningKeyRing.jwks() decides. */
export async function deleteSigningKeysRetiredBefore(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('signing_keys').where('retired_at', 'is not', null).where('retired_at', '<=', before).execute();
}
