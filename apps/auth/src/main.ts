import { runServerProcess, serve, type RunningServer } from '@latchkey/process';
import { createAuthApp } from './app.ts';
import type { AuthDeps } from './deps.ts';

/** Starts the authorization server on config.auth.port; close() drains it. */
export async function startAuthServer(deps: AuthDeps): Promise<RunningServer> {
  const running = await serve(createAuthApp(deps), deps.config.auth.port, deps.config.host, {
    shutdownTimeoutMs: deps.config.shutdownTimeoutMs,
    logger: deps.logger,
  });
  deps.logger.info({ url: deps.config.auth.url, port: running.port }, 'authorization server listening');
  return running;
}

/** The process entry: `node apps/auth/src/main.ts`, or `npm run serve -- auth`. */
export async function main(): Promise<void> {
  await runServerProcess({
    name: 'auth',
    start: async ({ config, logger, clock, observability, infrastructure: { db, redis } }) => [
      await startAuthServer({ config, db, redis, clock, logger, observability }),
    ],
  });
}

if (import.meta.main) await main();
