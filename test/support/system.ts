// Starts the real servers on loopback (port 0) over a fresh SQLite file in a temp folder,
// with a manual clock and captured JSON logs. Integration tests drive them over real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '@latchkey/config';
import { ensureFirstPartyClient, ManualClock } from '@latchkey/core';
import { createDatabase, migrateToLatest, sqlitePathFor, type Db } from '@latchkey/db';
import { createLogger } from '@latchkey/logging';
import { createAuthApp } from '../../apps/auth/src/app.ts';
import { createApiApp } from '../../apps/api/src/app.ts';

export interface TestSystem {
  authUrl: string;
  apiUrl: string;
  config: Config;
  db: Db;
  clock: ManualClock;
  dataDir: string;
  /** Every JSON log line both servers wrote. */
  logs: string[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** `env` overrides any environment variable of the configuration (e.g. EXPIRES_IN_AS_NUMBER). */
export async function startSystem(env: Record<string, string> = {}): Promise<TestSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-it-'));
  const authServer = createServer();
  const apiServer = createServer();
  const authPort = await listen(authServer);
  const apiPort = await listen(apiServer);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    AUTH_PORT: String(authPort),
    AUTH_URL: `http://127.0.0.1:${authPort}`,
    API_PORT: String(apiPort),
    API_URL: `http://127.0.0.1:${apiPort}`,
    PORTAL_URL: 'http://127.0.0.1:3999',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const db = createDatabase({ sqlitePath: sqlitePathFor(dataDir) });
  await migrateToLatest(db);
  const clock = new ManualClock(Date.now());
  await ensureFirstPartyClient(db, clock, {
    id: config.portal.clientId,
    secret: config.portal.clientSecret,
    name: 'Latchkey developer portal',
    redirectUri: config.portal.redirectUri,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  authServer.on('request', createAuthApp({ config, db, clock, logger }));
  const api = createApiApp({ config, db, clock, logger });
  apiServer.on('request', api.handler);
  return {
    authUrl: config.auth.url,
    apiUrl: config.api.url,
    config,
    db,
    clock,
    dataDir,
    logs,
    async close() {
      await Promise.all([closeServer(authServer), closeServer(apiServer)]);
      await api.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
