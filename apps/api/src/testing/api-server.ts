// For tests that need the API on its own (another configuration, a database of their own, or
// control over close()): the same createApiApp on a real loopback server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@latchkey/logging';
import { createApiApp, type ApiApp } from '../app.ts';
import type { ApiDeps } from '../deps.ts';

export interface StandaloneApi {
  url: string;
  app: ApiApp;
  /** Closes the server only; call app.close() to flush last-used times. */
  stop(): Promise<void>;
}

export async function startStandaloneApi(deps: ApiDeps): Promise<StandaloneApi> {
  const app = createApiApp(deps);
  const server = createServer(app.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    app,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A logger whose JSON lines land in `lines`. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines };
}
