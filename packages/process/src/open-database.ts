import type { Config } from '@latchkey/config';
import { ensureSigningKeys, provisionPortalClient, signingKeySealer, type Clock } from '@latchkey/core';
import { createDatabase, databaseOptionsFor, migrateToLatest, type Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';

export interface OpenDatabaseOptions {
  /** Shown in PostgreSQL's pg_stat_activity (e.g. latchkey-auth); "latchkey" by default. */
  applicationName?: string;
  /** Where errors of idle PostgreSQL connections (a server restart) are reported. */
  logger?: Logger;
}

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else the SQLite file
 * under DATA_DIR), applies pending migrations, provisions the portal client and the signing keys.
 */
export async function openDatabase(config: Config, clock: Clock, options: OpenDatabaseOptions = {}): Promise<Db> {
  const { logger } = options;
  const db = createDatabase(
    databaseOptionsFor(config, {
      ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName }),
      // The message only: pg's errors never carry the password of DATABASE_URL.
      onIdleError: (err) => logger?.warn({ reason: err.message }, 'idle database connection failed'),
    }),
  );
  try {
    await migrateToLatest(db);
    await provisionPortalClient(db, clock, config);
    // OI-09: the ID token signing keys exist from the first start.
    await ensureSigningKeys(db, clock, signingKeySealer(config.sessionSecret));
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
