import type { Config } from '@latchkey/config';
import { provisionPortalClient, type Clock } from '@latchkey/core';
import { createDatabase, migrateToLatest, sqlitePathFor, type Db } from '@latchkey/db';

/** Opens the configured database, applies pending migrations and provisions the portal client. */
export async function openDatabase(config: Config, clock: Clock): Promise<Db> {
  const db = createDatabase({ sqlitePath: sqlitePathFor(config.dataDir) });
  try {
    await migrateToLatest(db);
    await provisionPortalClient(db, clock, config);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
