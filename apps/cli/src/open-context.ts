import { loadConfig } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createDatabase, migrateToLatest, sqlitePathFor } from '@latchkey/db';
import type { CliContext } from './command.ts';

/** Opens the configured database (DATA_DIR) and brings its schema up to date, as the servers do on start. */
export async function openContext(): Promise<CliContext> {
  const config = loadConfig();
  const db = createDatabase({ sqlitePath: sqlitePathFor(config.dataDir) });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { config, db, clock: systemClock };
}
