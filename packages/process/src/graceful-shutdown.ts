import type { Logger } from '@latchkey/logging';
import type { RunningServer } from './serve.ts';

export interface GracefulShutdownOptions {
  servers: readonly RunningServer[];
  /** Runs once every server has stopped: closes the pools (Infrastructure.close). */
  closeResources(): Promise<void>;
  logger: Logger;
  /** SHUTDOWN_TIMEOUT_MS: how long in-flight requests may take (each server cuts the rest). */
  timeoutMs: number;
  /** process.exit unless a test says otherwise. */
  exit?: (code: number) => void;
}

/**
 * Past the drain, closing the pools may take this long before the process gives up waiting
 * and exits anyway (a PostgreSQL that stopped answering must not hold a stopping process).
 */
const RESOURCES_GRACE_MS = 5_000;

/**
 * on SIGTERM or SIGINT, stop every server (no new connections; in-flight requests
 * finish within `timeoutMs`: serve.ts), then close the pools, then exit 0 with a log line.
 * Pools close only after the servers: a request still running keeps its database connection
 * until its transaction is done, so no grant is left half-written. A second signal exits at
 * once (an operator who presses Ctrl+C twice means it); a shutdown that hangs past the
 * timeout plus a grace period exits 1.
 */
export function stopGracefullyOnSignals(options: GracefulShutdownOptions): void {
  const { logger, timeoutMs } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;

  async function stop(signal: NodeJS.Signals): Promise<void> {
    logger.info({ signal, timeoutMs }, 'shutting down: finishing in-flight requests');
    const watchdog = setTimeout(() => {
      logger.error({ signal }, 'shutdown did not finish in time: exiting');
      exit(1);
    }, timeoutMs + RESOURCES_GRACE_MS);
    watchdog.unref();
    try {
      await Promise.all(options.servers.map((server) => server.close()));
      await options.closeResources();
    } catch (err) {
      clearTimeout(watchdog);
      logger.error({ err }, 'shutdown failed');
      exit(1);
      return;
    }
    clearTimeout(watchdog);
    logger.info({ signal }, 'shut down cleanly');
    exit(0);
  }

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting for in-flight requests');
      exit(1);
      return;
    }
    stopping = true;
    void stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
