import { setTimeout as sleep } from 'node:timers/promises';
import { randomBase62 } from '@latchkey/credentials';
import type { Db } from '@latchkey/db';
import { recordSecurityEvent } from '../audit/security-events.ts';
import type { Clock } from '../clock.ts';
import { releaseLease, renewLease, takeLease } from '../locks/leases.repository.ts';
import {
  countExpiredWithoutEvent,
  countPurgeable,
  deleteGrantChildrenBatch,
  deleteGrants,
  deletePastRetentionBatch,
  GRANT_CHILDREN,
  listDeadGrants,
  listExpiredWithoutEvent,
  type OwnKind,
} from './retention.repository.ts';
import {
  cutoffsAt,
  PURGE_KINDS,
  type Cutoffs,
  type PurgeCounts,
  type PurgeKind,
  type PurgeOptions,
  type PurgeResult,
} from './retention.ts';

/** RE-03: rows one statement deletes, by default. */
export const DEFAULT_PURGE_BATCH_SIZE = 1000;

/** RE-04: the `locks` row of the purge, and how long a lease lasts unless renewed (it is, every batch). */
export const PURGE_LEASE_KEY = 'retention-purge';
const LEASE_TTL_MS = 5 * 60 * 1000;
const MAX_PAUSE_MS = 100;

/** Between two batches: requests waiting behind the purge run first; false once the run must stop. */
type Continue = () => Promise<boolean>;

/**
 * RE-01..RE-05, AU-11: deletes what is past retention (`retentionDays` after a row stopped
 * mattering; security events `auditRetentionDays` after they were written), kind by kind, a dead
 * grant's tokens and codes before it. First, each personal access token that expired gets its
 * `token.expired` event in its owner's log (AU-11), once.
 *
 * RE-03: every statement deletes at most `batchSize` rows, each its own short transaction, and the
 * run pauses between batches (as long as the last one took), so requests keep being answered and
 * no transaction is held long.
 * RE-04: one instance at a time: the run holds a lease in `locks`; when another instance holds it,
 * nothing is done and `{ skipped: true }` is returned. RE-05: `dryRun` counts what a run would
 * delete and write, from the same conditions, and changes nothing (no lease either).
 */
export async function purgeExpiredData(db: Db, clock: Clock, options: PurgeOptions): Promise<PurgeResult> {
  const batchSize = options.batchSize ?? DEFAULT_PURGE_BATCH_SIZE;
  const c = cutoffsAt(clock.now(), options);
  const deleted = Object.fromEntries(PURGE_KINDS.map((kind) => [kind, 0])) as PurgeCounts;

  if (options.dryRun === true) {
    for (const kind of PURGE_KINDS) deleted[kind] = await countPurgeable(db, kind, c);
    return { skipped: false, dryRun: true, deleted, tokenExpiredEvents: await countExpiredWithoutEvent(db, c) };
  }

  const holder = `purge_${randomBase62(16)}`;
  if (!(await takeLease(db, PURGE_LEASE_KEY, holder, c.now, LEASE_TTL_MS))) return { skipped: true };
  let stopped = false;
  let batchStarted = performance.now();
  const next: Continue = async () => {
    // RE-03: pause as long as the batch took (at most 100 ms): on SQLite the statements run on this
    // process's thread, and requests get at least half of it while a backlog is purged.
    await sleep(Math.min(performance.now() - batchStarted, MAX_PAUSE_MS));
    batchStarted = performance.now();
    // A run that outlived its lease (stalled past its TTL, taken over) stops: one purger at a time.
    if (
      !stopped &&
      (options.signal?.aborted === true || !(await renewLease(db, PURGE_LEASE_KEY, holder, clock.now(), LEASE_TTL_MS)))
    ) {
      stopped = true;
    }
    return !stopped;
  };
  try {
    const tokenExpiredEvents = await recordExpiredTokenEvents(db, c, batchSize, next);
    const batches = async (kind: PurgeKind, deleteBatch: () => Promise<number>) => {
      while (!stopped) {
        const n = await deleteBatch();
        deleted[kind] += n;
        if (n < batchSize || !(await next())) return;
      }
    };
    // First every kind by its own times (cheap scans), then dead grants: their remaining tokens
    // and codes, then them (foreign keys).
    for (const kind of PURGE_KINDS) {
      if (kind !== 'grants') await batches(kind, () => deletePastRetentionBatch(db, kind as OwnKind, c, batchSize));
    }
    while (!stopped) {
      const grantIds = await listDeadGrants(db, c, batchSize);
      if (grantIds.length === 0) break;
      for (const table of GRANT_CHILDREN) {
        await batches(table, () => deleteGrantChildrenBatch(db, table, grantIds, batchSize));
      }
      if (stopped) break;
      deleted.grants += await deleteGrants(db, grantIds);
      if (grantIds.length < batchSize || !(await next())) break;
    }
    return { skipped: false, dryRun: false, deleted, tokenExpiredEvents };
  } finally {
    await releaseLease(db, PURGE_LEASE_KEY, holder);
  }
}

/**
 * AU-11: a `token.expired` event, by the `system`, in the owner's log for each personal access
 * token that expired and has none yet, dated when it expired. A batch of events per transaction;
 * the lease keeps a second instance from writing them again.
 */
async function recordExpiredTokenEvents(db: Db, c: Cutoffs, batchSize: number, next: Continue): Promise<number> {
  let written = 0;
  for (;;) {
    const expired = await listExpiredWithoutEvent(db, c, batchSize);
    if (expired.length > 0) {
      await db.transaction().execute(async (trx) => {
        for (const token of expired) {
          await recordSecurityEvent(trx, {
            userId: token.user_id,
            type: 'token.expired',
            actor: 'system',
            target: { type: 'access_token', id: token.id },
            at: token.expires_at,
          });
        }
      });
      written += expired.length;
    }
    if (expired.length < batchSize || !(await next())) return written;
  }
}
