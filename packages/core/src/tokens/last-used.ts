import type { Db } from '@latchkey/db';
import { updateLastUsed, type LastUse } from './tokens.repository.ts';

/** TR-06: the longest User-Agent kept; the rest of a longer one is cut off. */
export const MAX_USER_AGENT_LENGTH = 512;

/**
 * Records when tokens were last used without a database write per API call: uses are kept
 * in memory and written in one transaction per flush. A crash loses at most one interval of
 * "last used" times, which are informational only.
 */
export class LastUsedRecorder {
  readonly #pending = new Map<string, LastUse>();
  readonly #db: Db;
  #timer: NodeJS.Timeout | undefined;

  /**
   * `onFlushError` hears every failed timed flush (the API logs it); the batch is kept and
   * written with the next one, so an outage of a few seconds loses nothing.
   */
  constructor(db: Db, intervalMs = 5000, onFlushError: (err: unknown) => void = () => {}) {
    this.#db = db;
    this.#timer = setInterval(() => void this.flush().catch(onFlushError), intervalMs);
    this.#timer.unref();
  }

  /**
   * TR-06, TR-07: the token was used at `at`, from `ip` (the client's address, TRUST_PROXY
   * respected) by `userAgent`; a map entry, written at the next flush.
   */
  record(tokenId: string, at: number, ip: string | null = null, userAgent: string | null = null): void {
    const agent =
      userAgent === null || userAgent.length <= MAX_USER_AGENT_LENGTH
        ? userAgent
        : userAgent.slice(0, MAX_USER_AGENT_LENGTH);
    this.#pending.set(tokenId, { at, ip, userAgent: agent });
  }

  async flush(): Promise<void> {
    if (this.#pending.size === 0) return;
    // Sorted, so two API instances flushing the same tokens lock rows in the same order and
    // cannot deadlock each other on PostgreSQL.
    const batch = [...this.#pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#pending.clear();
    try {
      await this.#db.transaction().execute(async (trx) => {
        for (const [id, use] of batch) await updateLastUsed(trx, id, use);
      });
    } catch (err) {
      // Back for the next flush, unless the token has been used again since (a later time wins).
      for (const [id, use] of batch) if (!this.#pending.has(id)) this.#pending.set(id, use);
      throw err;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
