import type { RequestListener } from 'node:http';
import type { ApiDeps } from './deps.ts';

export interface ApiApp {
  handler: RequestListener;
  /** Flushes pending last-used times and stops timers. */
  close(): Promise<void>;
}

/** Builds the GraphQL API's request handler. Does no I/O; main.ts and tests listen on it. */
export function createApiApp(deps: ApiDeps): ApiApp {
  void deps;
  return {
    handler: (_req, res) => {
      res.statusCode = 404;
      res.end();
    },
    close: async () => {},
  };
}
