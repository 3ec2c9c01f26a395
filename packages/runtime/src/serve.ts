import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/**
 * Listens with timeouts below Node's defaults so slow or idle clients cannot hold sockets
 * (SECURITY.md R-11).
 */
export async function serve(handler: RequestListener, port: number, host: string): Promise<RunningServer> {
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
