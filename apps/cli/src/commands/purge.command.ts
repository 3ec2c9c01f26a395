import { purgeExpiredData } from '@latchkey/core';
import type { Command } from '../command.ts';
import { parseOptions } from '../parse-options.ts';

export const PURGE_USAGE = 'purge [--dry-run]';

/**
 * RE-05: `purge` runs by hand what every server runs on its schedule (RE-06): deletes what is past
 * RETENTION_DAYS and AUDIT_RETENTION_DAYS and prints the count per kind. `--dry-run` prints the
 * counts a real run would delete, and changes nothing. While another instance holds the purge's
 * lease (RE-04) nothing is done: `{"skipped": true}`.
 */
export function parsePurgeCommand(action: string | undefined, args: string[]): Command {
  const parsed = parseOptions(
    action === undefined ? args : [action, ...args],
    { 'dry-run': { type: 'boolean' } },
    PURGE_USAGE,
  );
  const dryRun = parsed.values['dry-run'] === true;
  return {
    run: async ({ db, clock, config }) => {
      const result = await purgeExpiredData(db, clock, {
        retentionDays: config.retention.days,
        auditRetentionDays: config.retention.auditDays,
        dryRun,
      });
      if (result.skipped) return { skipped: true, reason: 'another instance is purging; try again later' };
      return {
        dry_run: result.dryRun,
        retention_days: config.retention.days,
        audit_retention_days: config.retention.auditDays,
        deleted: result.deleted,
        token_expired_events: result.tokenExpiredEvents,
      };
    },
  };
}
