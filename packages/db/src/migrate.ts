import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as createSchema from './migrations/2026_11_22_000000_create_schema.ts';
import * as createLocks from './migrations/2026_11_23_000000_create_locks.ts';
import * as addPostLogoutRedirectUri from './migrations/2026_11_24_000000_add_post_logout_redirect_uri.ts';
import * as addRefreshTokenParent from './migrations/2026_11_25_000000_add_refresh_token_parent.ts';
import * as clientDetails from './migrations/2026_11_26_000000_client_details.ts';
import * as addRefreshTokenGraceMarks from './migrations/2026_11_27_000000_add_refresh_token_grace_marks.ts';
import * as addScopes from './migrations/2026_11_28_000000_add_scopes.ts';
import * as publicClientsAndSecrets from './migrations/2026_11_29_000000_public_clients_and_secrets.ts';
import * as openidConnect from './migrations/2026_11_30_000000_openid_connect.ts';
import * as resourceIndicators from './migrations/2026_12_01_000000_resource_indicators.ts';
import * as clientRegistration from './migrations/2026_12_02_000000_client_registration.ts';
import * as deviceGrant from './migrations/2026_12_03_000000_device_grant.ts';
import * as tokenDetails from './migrations/2026_12_04_000000_token_details.ts';
import * as securityEvents from './migrations/2026_12_05_000000_security_events.ts';

/**
 * Migrations are listed here rather than read from the folder so that they work the same
 * from source, from a bundle and under Vitest. Once merged a migration is never edited.
 */
const migrations: Record<string, Migration> = {
  '2026_11_22_000000_create_schema': createSchema,
  '2026_11_23_000000_create_locks': createLocks,
  '2026_11_24_000000_add_post_logout_redirect_uri': addPostLogoutRedirectUri,
  '2026_11_25_000000_add_refresh_token_parent': addRefreshTokenParent,
  '2026_11_26_000000_client_details': clientDetails,
  '2026_11_27_000000_add_refresh_token_grace_marks': addRefreshTokenGraceMarks,
  '2026_11_28_000000_add_scopes': addScopes,
  '2026_11_29_000000_public_clients_and_secrets': publicClientsAndSecrets,
  '2026_11_30_000000_openid_connect': openidConnect,
  '2026_12_01_000000_resource_indicators': resourceIndicators,
  '2026_12_02_000000_client_registration': clientRegistration,
  '2026_12_03_000000_device_grant': deviceGrant,
  '2026_12_04_000000_token_details': tokenDetails,
  '2026_12_05_000000_security_events': securityEvents,
};

/** Exported for the migration tests, which step down and up again. */
export const provider: MigrationProvider = { getMigrations: async () => migrations };

export class MigrationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/** Applies every pending migration; throws MigrationError naming the one that failed. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  let { error, results } = await migrator.migrateToLatest();
  if (error) {
    // On PostgreSQL Kysely serialises migrators across processes with an advisory lock, so
    // concurrent instances are safe (a lock wait past statement_timeout lands here, too).
    // Its SQLite migration lock holds only within one process: when two processes migrate a
    // fresh file at once, the loser fails on "already exists"; by then the winner has
    // committed, so a second pass finds nothing left to do.
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
