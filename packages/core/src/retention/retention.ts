/** The kinds of row the purge deletes (RE-01, RE-02), as the CLI's JSON names them. */
export const PURGE_KINDS = [
  'access_tokens',
  'refresh_tokens',
  'authorization_codes',
  'device_authorizations',
  'grants',
  'sessions',
  'security_events',
] as const;
export type PurgeKind = (typeof PURGE_KINDS)[number];

/** How many rows of each kind a purge deleted, or (dry run) would delete. */
export type PurgeCounts = Record<PurgeKind, number>;

export interface PurgeOptions {
  /** RETENTION_DAYS: how long a row is kept after it stopped mattering. */
  retentionDays: number;
  /** AUDIT_RETENTION_DAYS: how long a security event is kept. */
  auditRetentionDays: number;
  /** Count what a run would delete and write, change nothing, take no lock (RE-05). */
  dryRun?: boolean;
  /** RE-03: the most rows one statement deletes (1,000 by default). */
  batchSize?: number;
  /** Stops the run between two batches (a server shutting down); what is left waits for the next run. */
  signal?: AbortSignal;
}

export type PurgeResult =
  /** RE-04: another instance holds the purge's lease; this run did nothing. */
  | { skipped: true }
  | {
      skipped: false;
      dryRun: boolean;
      deleted: PurgeCounts;
      /** AU-11: `token.expired` events written (dry run: that would be written). */
      tokenExpiredEvents: number;
    };

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The times a run compares with, fixed once at its start so a dry run and a real run agree (RE-05). */
export interface Cutoffs {
  now: number;
  /** Rows that stopped mattering before this are deleted (now − RETENTION_DAYS). */
  retention: number;
  /** Security events written before this are deleted (now − AUDIT_RETENTION_DAYS). */
  audit: number;
}

export function cutoffsAt(now: number, options: Pick<PurgeOptions, 'retentionDays' | 'auditRetentionDays'>): Cutoffs {
  return {
    now,
    retention: now - options.retentionDays * DAY_MS,
    audit: now - options.auditRetentionDays * DAY_MS,
  };
}
