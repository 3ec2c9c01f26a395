// The three servers' apps on loopback over a database (or Redis) of the test's choosing, with
// their log lines captured: to break a dependency under one server without touching the
// shared test system.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { RedisClient } from '@latchkey/sessions';
import { createApiApp } from '../../../apps/api/src/app.ts';
import { createAuthApp } from '../../../apps/auth/src/app.ts';
import { createBffApp } from '../../../apps/bff/src/app.ts';
import { captureLogger, closeServer, listenOnLoopback } from '../../support/loopback.ts';
import type { TestSystem } from '../../support/system.ts';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.ts';

export type ServerName = 'auth' | 'api' | 'bff';
export const SERVER_NAMES: readonly ServerName[] = ['auth', 'api', 'bff'];

export interface CapturedLogs {
  logger: Logger;
  /** Every JSON line written so far. */
  lines: string[];
  /** The lines as objects. */
  records(): Array<Record<string, unknown>>;
}

export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const logger = captureLogger(lines);
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: RequestListener): Promise<Listening> {
  const server = createServer(handler);
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

export interface StandaloneDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  redis?: RedisClient | undefined;
}

/** One server's app over `deps`, listening on a free loopback port. */
export async function startStandalone(name: ServerName, deps: StandaloneDeps): Promise<Listening> {
  if (name === 'auth') return listen(createAuthApp(deps));
  if (name === 'bff') return listen(createBffApp(deps));
  const api = createApiApp(deps);
  const listening = await listen(api.handler);
  return {
    url: listening.url,
    async close() {
      await listening.close();
      await api.close();
    },
  };
}

/**
 * The three servers over a database that answers but has no schema, so every real query fails
 * inside the driver (as with a database wiped or replaced): started before the enclosing
 * describe's first test, closed after its last. `system` lends its configuration and clock.
 */
export function useServersOnEmptyDatabase(
  system: Pick<TestSystem, 'config' | 'clock'>,
  logs: CapturedLogs,
): Partial<Record<ServerName, Listening>> {
  const servers: Partial<Record<ServerName, Listening>> = {};
  let dataDir: string | undefined;
  let empty: TestDatabase | undefined;
  let emptyDb: Db | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'latchkey-empty-db-'));
    empty = await createTestDatabase(dataDir, { migrated: false });
    emptyDb = empty.open();
    for (const name of SERVER_NAMES) {
      servers[name] = await startStandalone(name, {
        config: system.config,
        db: emptyDb,
        clock: system.clock,
        logger: logs.logger,
      });
    }
  });
  afterAll(async () => {
    for (const server of Object.values(servers)) await server?.close();
    await emptyDb?.destroy();
    await empty?.dispose();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });
  return servers;
}
