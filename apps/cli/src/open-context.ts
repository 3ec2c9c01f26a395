import { loadConfig } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createDatabase, databaseOptionsFor, migrateToLatest } from '@latchkey/db';
import type { CliContext } from './command.ts';

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else the SQLite file
 * under DATA_DIR) and brings its schema up to date, as the servers do on start.
 */
export async function openContext(env?: NodeJS.ProcessEnv): Promise<CliContext> {
  const config = loadConfig(env);
  const db = createDatabase(databaseOptionsFor(config, { applicationName: 'latchkey-cli' }));
  let appliedMigrations: string[];
  try {
    appliedMigrations = await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { config, db, clock: systemClock, appliedMigrations };
}
