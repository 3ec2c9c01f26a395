import type { Command } from '../command.ts';
import { UsageError } from '../usage-error.ts';

/**
 * `migrate`: brings the schema up to date before a release's instances start (docs/operating.md, "Running
 * at scale"). Opening the context already migrates (under PostgreSQL's advisory lock), so this
 * only reports what that applied.
 */
export function parseMigrateCommand(action: string | undefined, args: string[]): Command {
  if (action !== undefined || args.length > 0) throw new UsageError('migrate takes no arguments');
  return { run: async (context) => ({ applied: context.appliedMigrations }) };
}
