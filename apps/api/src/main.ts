import { runServerProcess, serve, type RunningServer } from '@latchkey/process';
import { createApiApp } from './app.ts';
import type { ApiDeps } from './deps.ts';

/** Starts the GraphQL API on config.api.port; close() drains it, then flushes last-used times. */
export async function startApiServer(deps: ApiDeps): Promise<RunningServer> {
  const api = createApiApp(deps);
  const running = await serve(api.handler, deps.config.api.port, deps.config.host, {
    shutdownTimeoutMs: deps.config.shutdownTimeoutMs,
    logger: deps.logger,
  });
  deps.logger.info({ url: deps.config.api.url, port: running.port }, 'GraphQL API listening');
  return {
    ...running,
    close: async () => {
      await running.close();
      await api.close();
    },
  };
}

/** The process entry: `node apps/api/src/main.ts`, or `npm run serve -- api`. */
export async function main(): Promise<void> {
  await runServerProcess({
    name: 'api',
    start: async ({ config, logger, clock, observability, infrastructure: { db, redis } }) => [
      await startApiServer({ config, db, redis, clock, logger, observability }),
    ],
  });
}

if (import.meta.main) await main();
