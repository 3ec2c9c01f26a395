import { loadConfig } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, serve, type RunningServer } from '@latchkey/runtime';
import { createAuthApp } from './app.ts';
import type { AuthDeps } from './deps.ts';

/** Starts the authorization server on config.auth.port. */
export async function startAuthServer(deps: AuthDeps): Promise<RunningServer> {
  const running = await serve(createAuthApp(deps), deps.config.auth.port, deps.config.host);
  deps.logger.info({ url: deps.config.auth.url, port: running.port }, 'authorization server listening');
  return running;
}

if (import.meta.main) {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'auth' });
  const db = await openDatabase(config, systemClock);
  const running = await startAuthServer({ config, db, clock: systemClock, logger });
  process.once('SIGTERM', () => void running.close().then(() => db.destroy()));
  process.once('SIGINT', () => void running.close().then(() => db.destroy()));
}
