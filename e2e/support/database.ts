// What no page can do: stand for time passing, by moving a token's dates in the throwaway
// system's SQLite file (global-setup.ts hands its folder to the workers as E2E_DATA_DIR). The
// servers read the token's row on every request, so the next one sees the change. The
// integration tests prove the same rules with an injectable clock; a journey cannot wait hours.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The servers write as we do (WAL); wait for their write lock rather than fail. */
const BUSY_TIMEOUT_MS = 5_000;

function openSystemDatabase(): DatabaseSync {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) {
    throw new Error(
      'E2E_DATA_DIR is unset: this journey edits the database of the system the run started itself (global-setup.ts), not of one already running',
    );
  }
  // packages/db sqlitePathFor: the embedded database file under DATA_DIR.
  return new DatabaseSync(join(dataDir, 'latchkey.sqlite'), { timeout: BUSY_TIMEOUT_MS });
}

/** Runs one UPDATE of one access token by id; fails unless exactly that row changed. */
function updateToken(tokenId: string, sql: string, ...values: number[]): void {
  const db = openSystemDatabase();
  try {
    const { changes } = db.prepare(sql).run(...values, tokenId);
    if (Number(changes) !== 1) throw new Error(`No access token ${tokenId} in the system's database`);
  } finally {
    db.close();
  }
}

/** The token stops working at `expiresAt` (ms), as if its time had come. */
export function setTokenExpiresAt(tokenId: string, expiresAt: number): void {
  updateToken(tokenId, 'UPDATE access_tokens SET expires_at = ? WHERE id = ?', expiresAt);
}

/** The token was made `ms` earlier and expires `ms` earlier: as if that much time had passed. */
export function ageToken(tokenId: string, ms: number): void {
  updateToken(
    tokenId,
    'UPDATE access_tokens SET created_at = created_at - ?, expires_at = expires_at - ? WHERE id = ?',
    ms,
    ms,
  );
}
