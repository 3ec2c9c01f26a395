import type { Db } from '@latchkey/db';
import { updateLastUsed } from './tokens.repository.ts';

/**
 * Records when tokens were last used without a database write per API call: uses are kept
 * in memory and written in one transaction per flush. A crash loses at most one interval of
 * "last used" times, which are informational only.
 */
export class LastUsedRecorder {
  readonly #pending = new Map<string, number>();
  readonly #db: Db;
  #timer: NodeJS.Timeout | undefined;

  constructor(db: Db, intervalMs = 5000) {
    this.#db = db;
    this.#timer = setInterval(() => void this.flush().catch(() => {}), intervalMs);
    this.#timer.unref();
  }

  record(tokenId: string, at: number): void {
    this.#pending.set(tokenId, at);
  }

  async flush(): Promise<void> {
    if (this.#pending.size === 0) return;
    // Sorted, so two API instances flushing the same tokens lock rows in the same order and
    // cannot deadlock each other on PostgreSQL.
    const batch = [...this.#pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#pending.clear();
    await this.#db.transaction().execute(async (trx) => {
      for (const [id, at] of batch) await updateLastUsed(trx, id, at);
    });
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
