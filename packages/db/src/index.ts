export type * from './database.ts';
export { createDatabase, databaseOptionsFor, sqlitePathFor } from './create-database.ts';
export type { DatabaseOptions, PostgresOptions, SqliteOptions } from './create-database.ts';
export { isDatabaseUnavailable } from './database-unavailable.ts';
export { isNetworkErrorCode } from './network-errors.ts';
export { migrateToLatest, MigrationError } from './migrate.ts';
