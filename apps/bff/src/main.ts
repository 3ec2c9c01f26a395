import { runServerProcess, serve, type RunningServer } from '@latchkey/process';
import { createBffApp } from './app.ts';
import type { BffDeps } from './deps.ts';

/** Starts the portal (the BFF and the built SPA) on config.portal.port; close() drains it. */
export async function startBffServer(deps: BffDeps): Promise<RunningServer> {
  const { config, logger } = deps;
  if (config.portal.url.startsWith('https://') && config.trustProxy === undefined) {
    // The BFF itself speaks plain http; without a trusted proxy saying the request came over
    // https, express-session silently drops the Secure session cookie (BF-CK-02).
    logger.warn('PORTAL_URL is https but TRUST_PROXY is not set: session cookies will not be sent');
  }
  const running = await serve(createBffApp(deps), config.portal.port, config.host, {
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    logger,
  });
  logger.info({ url: config.portal.url, port: running.port }, 'developer portal listening');
  return running;
}

/** The process entry: `node apps/bff/src/main.ts`, or `npm run serve -- portal`. */
export async function main(): Promise<void> {
  await runServerProcess({
    name: 'bff',
    start: async ({ config, logger, clock, observability, infrastructure: { db, redis } }) => [
      await startBffServer({ config, db, redis, clock, logger, observability }),
    ],
  });
}

if (import.meta.main) await main();
