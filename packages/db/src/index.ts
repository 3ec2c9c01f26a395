export type * from './database.ts';
export { createDatabase, sqlitePathFor } from './create-database.ts';
export { migrateToLatest, MigrationError } from './migrate.ts';
