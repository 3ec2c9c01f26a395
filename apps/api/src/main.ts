import { loadConfig } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, serve, type RunningServer } from '@latchkey/runtime';
import { createApiApp } from './app.ts';
import type { ApiDeps } from './deps.ts';

/** Starts the GraphQL API on config.api.port. */
export async function startApiServer(deps: ApiDeps): Promise<RunningServer> {
  const api = createApiApp(deps);
  const running = await serve(api.handler, deps.config.api.port, deps.config.host);
  deps.logger.info({ url: deps.config.api.url, port: running.port }, 'GraphQL API listening');
  return {
    ...running,
    close: async () => {
      await running.close();
      await api.close();
    },
  };
}

if (import.meta.main) {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'api' });
  const db = await openDatabase(config, systemClock);
  const running = await startApiServer({ config, db, clock: systemClock, logger });
  process.once('SIGTERM', () => void running.close().then(() => db.destroy()));
  process.once('SIGINT', () => void running.close().then(() => db.destroy()));
}
