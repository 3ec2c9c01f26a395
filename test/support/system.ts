// Starts the real servers on loopback (port 0) over a fresh database (a SQLite file in a temp
// folder, or in the node-pg project a fresh PostgreSQL database: test-database.ts), with a
// manual clock and captured JSON logs. Integration tests drive them over real HTTP.
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '@latchkey/config';
import { ManualClock, provisionPortalClient } from '@latchkey/core';
import { createDatabase, databaseOptionsFor, migrateToLatest, type Db } from '@latchkey/db';
import { createObservability, type Observability } from '@latchkey/observability';
import { createAuthApp } from '../../apps/auth/src/app.ts';
import { createApiApp } from '../../apps/api/src/app.ts';
import { FaultInjector } from './faults.ts';
import { perFile } from './per-file.ts';
import { captureLogger, closeServer, listenOnLoopback } from './loopback.ts';
import { createTestDatabase, type Engine } from './test-database.ts';

export interface TestSystem {
  authUrl: string;
  apiUrl: string;
  config: Config;
  db: Db;
  /** Which database the servers run on (the project decides: node is SQLite, node-pg PostgreSQL). */
  engine: Engine;
  clock: ManualClock;
  /** DATA_DIR: the SQLite file and the generated local secrets. */
  dataDir: string;
  /** Every JSON log line both servers wrote. */
  logs: string[];
  /** Makes the servers' queries on a table fail with a chosen error (faults.ts). */
  faults: FaultInjector;
  /** Each server's metrics and traces (tracing is off unless SystemOptions.otlpEndpoint is set). */
  observability: { auth: Observability; api: Observability };
  /**
   * Everything the database holds, as text, to search for secrets at rest (TS-01): SQLite's
   * files (main, write-ahead log, shared memory) read as latin1, or on PostgreSQL every row of
   * every table.
   */
  databaseText(): Promise<string>;
  close(): Promise<void>;
}

/** What the servers get besides the configuration. */
export interface SystemOptions {
  /** CM-*: a CA (PEM) the authorization server trusts when fetching client ID metadata documents over https. */
  metadataDocumentCa?: string;
  /** OB-*: the servers export their spans to this OTLP/HTTP endpoint (a test receiver); off without it. */
  otlpEndpoint?: string;
}

/** `env` overrides any environment variable of the configuration (e.g. EXPIRES_IN_AS_NUMBER). */
export async function startSystem(env: Record<string, string> = {}, options: SystemOptions = {}): Promise<TestSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-it-'));
  const database = await createTestDatabase(dataDir);
  const authServer = createServer();
  const apiServer = createServer();
  const authPort = await listenOnLoopback(authServer);
  const apiPort = await listenOnLoopback(apiServer);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    AUTH_PORT: String(authPort),
    AUTH_URL: `http://127.0.0.1:${authPort}`,
    API_PORT: String(apiPort),
    API_URL: `http://127.0.0.1:${apiPort}`,
    PORTAL_URL: 'http://127.0.0.1:3999',
    LOG_LEVEL: 'debug',
    ...database.env,
    ...env,
  });
  // Through the configuration, as the servers' openDatabase does (DATABASE_URL or DATA_DIR).
  const faults = new FaultInjector();
  const db = createDatabase(databaseOptionsFor(config)).withPlugin(faults);
  await migrateToLatest(db);
  const clock = new ManualClock(Date.now());
  await provisionPortalClient(db, clock, config);
  const logs: string[] = [];
  const logger = captureLogger(logs);
  // One per server, as when each runs in its own process; closing flushes their spans.
  const observability = {
    auth: createObservability({ otlpEndpoint: options.otlpEndpoint, serviceName: 'latchkey-auth' }),
    api: createObservability({ otlpEndpoint: options.otlpEndpoint, serviceName: 'latchkey-api' }),
  };
  authServer.on(
    'request',
    createAuthApp({
      config,
      db,
      clock,
      logger,
      metadataDocumentCa: options.metadataDocumentCa,
      observability: observability.auth,
    }),
  );
  const api = createApiApp({ config, db, clock, logger, observability: observability.api });
  apiServer.on('request', api.handler);
  return {
    authUrl: config.auth.url,
    apiUrl: config.api.url,
    config,
    db,
    engine: database.engine,
    clock,
    dataDir,
    logs,
    faults,
    observability,
    async databaseText() {
      if ('url' in database.options) {
        const client = new pg.Client({ connectionString: database.options.url });
        await client.connect();
        try {
          const { rows } = await client.query<{ rows: string }>(
            "select query_to_xml(format('select * from %I', tablename), true, false, '')::text as rows from pg_tables where schemaname = 'public'",
          );
          return rows.map((r) => r.rows).join('\n');
        } finally {
          await client.end();
        }
      }
      // A checkpoint may not have run yet: the write-ahead log holds the latest rows.
      return readdirSync(dataDir)
        .filter((name) => name.startsWith('latchkey.sqlite'))
        .map((name) => readFileSync(join(dataDir, name)).toString('latin1'))
        .join('\n');
    },
    async close() {
      await Promise.all([closeServer(authServer), closeServer(apiServer)]);
      await api.close();
      await Promise.all([observability.auth.tracing.close(), observability.api.tracing.close()]);
      await db.destroy();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The system of one test file (per-file.ts): started before its first test, closed after its last. */
export function useSystem(env: Record<string, string> = {}, options: SystemOptions = {}): TestSystem {
  return perFile(
    async () => ({ system: await startSystem(env, options) }),
    ({ system }) => system.close(),
  ).system;
}
