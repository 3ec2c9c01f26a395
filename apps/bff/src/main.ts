import { loadConfig } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, serve, type RunningServer } from '@latchkey/runtime';
import { createBffApp } from './app.ts';
import type { BffDeps } from './deps.ts';

/** Starts the portal (the BFF and the built SPA) on config.portal.port. */
export async function startBffServer(deps: BffDeps): Promise<RunningServer> {
  const { config, logger } = deps;
  if (config.portal.url.startsWith('https://') && config.trustProxy === undefined) {
    // The BFF itself speaks plain http; without a trusted proxy saying the request came over
    // https, express-session silently drops the Secure session cookie (BF-CK-02).
    logger.warn('PORTAL_URL is https but TRUST_PROXY is not set: session cookies will not be sent');
  }
  const running = await serve(createBffApp(deps), config.portal.port, config.host);
  logger.info({ url: config.portal.url, port: running.port }, 'developer portal listening');
  return running;
}

if (import.meta.main) {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'bff' });
  const db = await openDatabase(config, systemClock);
  const running = await startBffServer({ config, db, clock: systemClock, logger });
  process.once('SIGTERM', () => void running.close().then(() => db.destroy()));
  process.once('SIGINT', () => void running.close().then(() => db.destroy()));
}
