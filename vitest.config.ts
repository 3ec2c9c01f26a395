import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const INTEGRATION = ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'];

/** Fault tests (the R rules) start their own servers and run alone: project `reliability`. */
const RELIABILITY = 'test/reliability/**';

/** Tests of PostgreSQL itself (pool, timeouts, BIGINT, concurrent migrations): node-pg only. */
const POSTGRES_ONLY = '**/*.postgres.test.ts';

/**
 * Unit tests: they start no server, open no database, spawn no process and use no network
 * (parsers, formatting, crypto, the portal's pure helpers). They run once, in project `unit`;
 * `npm run test:unit` runs them with the portal's page tests (project `portal`). A new test
 * file belongs here when it imports nothing from test/support/ but tamper.ts and starts nothing.
 */
const UNIT = [
  'apps/api/src/graphql/field-scopes.test.ts',
  'apps/api/src/graphql/document-cache.test.ts',
  'apps/api/src/graphql/fast-path/execution-plan.test.ts',
  'apps/api/src/graphql/format-error.test.ts',
  'apps/auth/src/authorization/consent/mixed-script.test.ts',
  'apps/auth/src/authorization/metadata-document/address-guard.test.ts',
  'apps/auth/src/authorization/metadata-document/cache-lifetime.test.ts',
  'apps/auth/src/authorization/metadata-document/metadata-document-url.test.ts',
  'apps/auth/src/authorization/metadata-document/metadata-document.schema.test.ts',
  'apps/auth/src/http/html.test.ts',
  'apps/bff/src/oidc/return-to.test.ts',
  'apps/bff/src/session/token-sealing.test.ts',
  'apps/bff/src/spa/page-preloads.test.ts',
  'apps/portal/src/**/*.test.ts',
  'packages/config/src/local-secrets.test.ts',
  'packages/core/src/clients/match-secret.test.ts',
  'packages/core/src/text.test.ts',
  'packages/core/src/users/password-patterns.test.ts',
  'packages/core/src/users/password-policy.test.ts',
  'packages/core/src/users/password.test.ts',
  'packages/credentials/src/**/*.test.ts',
  'packages/http/src/**/*.test.ts',
  'test/support/tamper.test.ts',
];

/**
 * Not run again on PostgreSQL: tests that touch no database engine but need more than a unit
 * test (a server, a child process), and tests that are about the SQLite file itself (its bytes
 * on disk, a server wired to DATA_DIR). New tests run on both engines unless listed here.
 */
const SQLITE_OR_NO_DATABASE = [
  'apps/api/src/http/read-body.test.ts',
  'packages/db/src/database-unavailable.test.ts',
  // The CLI's dispatch and usage errors: refused before any database is opened.
  'apps/cli/src/main.test.ts',
  // The CLI's commands, one process spawned per call: they call the core services the servers'
  // tests run on both engines. user.command.test.ts still runs on PostgreSQL, proving the CLI opens
  // and migrates the database DATABASE_URL names; the rest would add three minutes to the run.
  'apps/cli/src/commands/client.command.test.ts',
  'apps/cli/src/commands/grant.command.test.ts',
  'apps/cli/src/commands/keys.command.test.ts',
  'apps/cli/src/commands/registration.command.test.ts',
  'apps/cli/src/commands/resource.command.test.ts',
  'apps/cli/src/commands/token.command.test.ts',
  // The security log's and the purge's queries run on both engines in core's and the auth
  // server's tests.
  'apps/cli/src/commands/audit.command.test.ts',
  'apps/cli/src/commands/purge.command.test.ts',
  // Rate limits count in process memory or Redis, never in the database; sign-in's own queries
  // run on PostgreSQL in apps/auth/src/interaction/login.
  'apps/auth/src/http/rate-limit.test.ts',
  // The test harness's own helpers.
  'test/support/**',
  // The client-library interoperability suite (issue 18): the protocol as each library speaks it;
  // the engine under it is not what it tests, and each file starts two systems.
  'test/interop/**',
  // Redis only (connectRedis against a real redis-server): no database.
  'packages/sessions/src/redis.test.ts',
  // startBffServer over openDatabase with an explicit DATA_DIR: SQLite whatever the project.
  'apps/bff/src/main.test.ts',
  // Makes the SQLite file read-only (PRAGMA query_only) to get a 503; the PostgreSQL outages
  // are in apps/api/src/bearer/database-unavailable.test.ts and packages/db.
  'apps/auth/src/http/error-handler.test.ts',
];

/**
 * The integration files share their worker's module graph instead of loading the whole stack
 * again for each file: loading it was a fifth of the run (about 400 s of 1,600 on 2 cores), and
 * the run must stay under 30 minutes. Every file starts its own servers on its own database and
 * closes them in afterAll, and none mocks a module or changes the environment, so nothing a file
 * leaves behind is seen by the next. The reliability project keeps its own process per file.
 */
const ISOLATE = false;

export default defineConfig({
  resolve: {
    // Tests deep in apps/ and packages/ reach the shared harness as #test/support/... (tsconfig paths too).
    alias: [{ find: /^#test\/(.*)$/, replacement: `${fileURLToPath(new URL('./test/', import.meta.url))}$1` }],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's 2 cores.
    // The integration files spend much of their time waiting on sockets and databases, so two
    // at a time took the whole run from about 795 s to 574 s here, with the slowest test at 12 s
    // (of its 30 s timeout). The reliability project still runs alone, after the rest.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: INTEGRATION,
          exclude: ['**/node_modules/**', 'e2e/**', RELIABILITY, POSTGRES_ONLY, ...UNIT],
          pool: 'forks',
          // Every suite uses its own SQLite file and servers on port 0, so files run in parallel.
          fileParallelism: true,
          isolate: ISOLATE,
        },
      },
      {
        extends: true,
        test: {
          // The same integration suite on PostgreSQL: one throwaway cluster for the run
          // (test/support/postgres.global-setup.ts), a fresh database per test system.
          name: 'node-pg',
          include: INTEGRATION,
          exclude: ['**/node_modules/**', 'e2e/**', RELIABILITY, ...UNIT, ...SQLITE_OR_NO_DATABASE],
          globalSetup: ['test/support/postgres.global-setup.ts'],
          pool: 'forks',
          fileParallelism: true,
          isolate: ISOLATE,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: ['**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          include: [`${RELIABILITY}/*.test.ts`],
          exclude: ['**/node_modules/**'],
          pool: 'forks',
          // Each file starts its own clusters and server processes and loads them: one at a time.
          // Vitest runs such files in its "sequential" group, after the parallel groups, so
          // they never share the machine with other test files (no sequence.groupOrder: that
          // would put this project before the others when maxWorkers is 1, on 2 cores).
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'portal',
          include: ['apps/portal/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['apps/portal/src/testing/setup-tests.ts'],
        },
      },
    ],
  },
});
