export type * from './database.ts';
export { createDatabase, databaseOptionsFor, readDirect, sqlitePathFor } from './create-database.ts';
export { NO_DIRECT_READ } from './node-sqlite.ts';
export type { DatabaseOptions, PostgresOptions, SqliteOptions } from './create-database.ts';
export { isDatabaseUnavailable } from './database-unavailable.ts';
export { isNetworkErrorCode } from './network-errors.ts';
export { postgresPoolCounts } from './postgres-pool.ts';
export type { PostgresPoolCounts } from './postgres-pool.ts';
export { migrateToLatest, MigrationError } from './migrate.ts';
