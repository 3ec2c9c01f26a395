// Small helpers the test harness shares: free loopback ports, servers on 127.0.0.1 port 0,
// closing them, and a logger whose JSON lines are captured in an array.
import type { Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger, type LoggerOptions } from '@latchkey/logging';

/** Listens on 127.0.0.1, port 0 (the OS's choice), and resolves the port it got. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no port'));
      else resolve(address.port);
    });
  });
}

function closeQuietly(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A loopback port nobody listens on right now (free a moment ago: the short gap before use is accepted). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.unref();
  const port = await listenOnLoopback(server);
  await closeQuietly(server);
  return port;
}

/**
 * `count` distinct free ports on 127.0.0.1. All are held open until every one is chosen, so the
 * kernel cannot hand the same port out twice; the small window between closing them and the
 * servers binding is accepted (the kernel picks ephemeral ports at random).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(servers.map(listenOnLoopback));
  } finally {
    await Promise.all(servers.map(closeQuietly));
  }
}

/** Drops the open connections (keep-alive included), then closes the server. */
export async function closeServer(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A logger (at `debug` unless told) whose JSON lines are pushed onto `lines`, one entry per line. */
export function captureLogger(
  lines: string[],
  options: { name?: string; level?: LoggerOptions['level'] } = {},
): Logger {
  return createLogger({
    level: options.level ?? 'debug',
    ...(options.name === undefined ? {} : { name: options.name }),
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        callback();
      },
    }),
  });
}
