import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { markDraining } from '@latchkey/http';
import type { Logger } from '@latchkey/logging';

export interface RunningServer {
  server: Server;
  port: number;
  /**
   * Graceful stop: stops accepting connections at once, lets in-flight requests finish
   * for up to the shutdown timeout, then closes the sockets left; resolves when all are closed.
   */
  close(): Promise<void>;
}

export interface ServeOptions {
  /** How long in-flight requests may take to finish once close() is called (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs?: number;
  /** Told how the drain went. */
  logger?: Logger;
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** Tells the client not to reuse the connection; Node then closes it after this response. */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/**
 * Listens with timeouts below Node's defaults so slow or idle clients cannot hold sockets
 * and can stop without cutting a request short: once close() is
 * called the port is closed (new connections are refused), idle keep-alive connections are
 * closed, every response still to be written says `Connection: close`, a connection is closed
 * as soon as its response is done, and after `shutdownTimeoutMs` whatever is left is cut.
 */
export async function serve(
  handler: RequestListener,
  port: number,
  host: string,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  // Responses not yet finished: at shutdown they are told to close their connection. A Set
  // add and delete per request, next to everything Node does per request.
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const server: Server = createServer(
    { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
    (req, res) => {
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        // A response sent before the drain began kept its connection alive: close it now.
        if (draining) setImmediate(() => server.closeIdleConnections());
      });
      if (draining) {
        // A request on a connection that was open when the drain began.
        markDraining(req);
        closeAfter(res);
      }
      handler(req, res);
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const boundPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      draining = true;
      const started = performance.now();
      const pending = inFlight.size;
      let forced = 0;
      const deadline = setTimeout(() => {
        forced = inFlight.size;
        server.closeAllConnections();
      }, timeoutMs);
      server.close(() => {
        clearTimeout(deadline);
        options.logger?.info(
          { port: boundPort, pending, cut: forced, durationMs: Math.round(performance.now() - started) },
          forced > 0
            ? 'server stopped: requests cut at the shutdown timeout'
            : 'server stopped: every request finished',
        );
        resolve();
      });
      for (const res of inFlight) closeAfter(res);
      server.closeIdleConnections();
    });
    return closing;
  }

  return { server, port: boundPort, close };
}
