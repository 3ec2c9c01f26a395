import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';

/** What a command runs against: the configured database, opened and migrated. */
export interface CliContext {
  config: Config;
  db: Db;
  clock: Clock;
  /** The migrations this run applied (empty when the schema was already current). */
  appliedMigrations: string[];
}

/**
 * A command whose arguments are already checked. Parsing happens before the database is
 * opened, so a usage error leaves DATA_DIR untouched.
 */
export interface Command {
  run(context: CliContext): Promise<unknown>;
}
