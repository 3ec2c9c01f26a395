import { ConfigError, loadConfig, type Config } from '@latchkey/config';
import { systemClock, type Clock } from '@latchkey/core';
import { isDatabaseUnavailable, MigrationError } from '@latchkey/db';
import { DependencyUnavailableError } from '@latchkey/http';
import { createLogger, type Logger } from '@latchkey/logging';
import { createObservability, type Observability } from '@latchkey/observability';
import { openInfrastructure, type Infrastructure } from './infrastructure.ts';
import type { RunningServer } from './serve.ts';
import { stopGracefullyOnSignals } from './graceful-shutdown.ts';
import { serveMetrics } from './metrics-server.ts';
import { observeProcess } from './process-metrics.ts';
import { schedulePurge } from './purge-schedule.ts';

export interface ServerProcessContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  infrastructure: Infrastructure;
  /** OB-*: the process's metrics registry and tracer, shared by every server it runs. */
  observability: Observability;
}

export interface ServerProcessOptions {
  /** The server's name in log lines and errors (auth, api, bff); none for `npm start`. */
  name?: string;
  /** Starts the servers over the opened infrastructure (and whatever else the process needs). */
  start(context: ServerProcessContext): Promise<readonly RunningServer[]>;
}

/** The password of a connection URL, wherever it could appear in an error message. */
function secretsOf(config: Config | undefined): string[] {
  const secrets: string[] = [];
  for (const url of [config?.databaseUrl, config?.redisUrl]) {
    if (url === undefined) continue;
    try {
      const password = decodeURIComponent(new URL(url).password);
      if (password !== '') secrets.push(password);
    } catch {
      // Not a URL: nothing to hide.
    }
  }
  return secrets;
}

/**
 * What went wrong at the bottom of a cause chain ("connect ECONNREFUSED 127.0.0.1:5432"),
 * not the wrapper's words ("migration (unknown) failed"). A refused connection to a host with
 * several addresses is an AggregateError without a message: its code says it.
 */
function rootCause(err: unknown): string {
  let e = err;
  for (let depth = 0; depth < 10; depth += 1) {
    if (e instanceof AggregateError && e.errors.length > 0) e = e.errors[0];
    else if (e instanceof Error && e.cause !== undefined) e = e.cause;
    else break;
  }
  if (!(e instanceof Error)) return String(e);
  const { code } = e as { code?: unknown };
  return e.message !== '' ? e.message : typeof code === 'string' ? code : e.name;
}

/** Failures an operator fixes outside the code: worth a sentence, not a stack trace. */
function expectedFailure(err: unknown): string | undefined {
  if (err instanceof ConfigError) return `invalid configuration: ${err.problems.join('; ')}`;
  if (err instanceof DependencyUnavailableError) return `${err.dependency} is unavailable: ${rootCause(err)}`;
  if (isDatabaseUnavailable(err)) return `the database is unavailable: ${rootCause(err)}`;
  if (err instanceof MigrationError) return `the database could not be migrated: ${err.message}: ${rootCause(err)}`;
  const { code, address, port, message } = (err ?? {}) as {
    code?: unknown;
    address?: unknown;
    port?: unknown;
    message?: unknown;
  };
  // A file under DATA_DIR that is not a SQLite database, or cannot be opened.
  if (code === 'ERR_SQLITE_ERROR') return `the SQLite database could not be opened: ${String(message)}`;
  if (code === 'EADDRINUSE') return `${String(address)}:${String(port)} is already in use`;
  if (code === 'EADDRNOTAVAIL') return `HOST ${String(address)} is not an address of this machine`;
  // A system error (EACCES on DATA_DIR, ENOSPC...): its message names the path and the cause.
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof message === 'string') return message;
  return undefined;
}

/**
 * A server that cannot start says why on one line of stderr and exits 1: a sentence for an
 * expected failure (bad configuration, database unreachable, port taken), the stack only for
 * a bug. Passwords of DATABASE_URL and REDIS_URL are cut from the line.
 */
function failStartup(label: string, err: unknown, config: Config | undefined): never {
  const expected = expectedFailure(err);
  let line = `${label}: cannot start: ${expected ?? (err instanceof Error ? (err.stack ?? err.message) : String(err))}`;
  for (const secret of secretsOf(config)) line = line.split(secret).join('***');
  process.stderr.write(`${expected === undefined ? line : line.replaceAll('\n', ' ')}\n`);
  process.exit(1);
}

/** Stray failures are logged, never silent; an uncaught exception leaves state unknown: exit. */
function logStrayFailures(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception: exiting');
    process.exit(1);
  });
}

/**
 * The life of a server process (apps' main.ts, `npm start`): configuration, logger, database
 * and Redis, the servers, then a graceful stop on SIGTERM/SIGINT (graceful-shutdown.ts). A
 * start that fails closes what it opened and exits 1 with one line (failStartup).
 */
export async function runServerProcess(options: ServerProcessOptions): Promise<void> {
  const label = options.name === undefined ? 'latchkey' : `latchkey ${options.name}`;
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    failStartup(label, err, undefined);
  }
  const logger = createLogger({
    level: config.logLevel,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  logStrayFailures(logger);

  const observability = createObservability({
    otlpEndpoint: config.tracing.endpoint,
    serviceName: config.tracing.serviceName ?? (options.name === undefined ? 'latchkey' : `latchkey-${options.name}`),
  });
  let infrastructure: Infrastructure;
  try {
    infrastructure = await openInfrastructure(config, systemClock, logger, {
      applicationName: options.name === undefined ? 'latchkey' : `latchkey-${options.name}`,
      tracing: observability.tracing,
    });
  } catch (err) {
    await observability.tracing.close();
    failStartup(label, err, config);
  }
  let servers: readonly RunningServer[] = [];
  try {
    servers = await options.start({ config, logger, clock: systemClock, infrastructure, observability });
    // OB-08: metrics on their own listener, only when METRICS_PORT is set.
    if (config.metrics.port !== undefined) {
      observeProcess(observability.metrics, config, infrastructure.redis);
      servers = [
        ...servers,
        await serveMetrics(observability.metrics, config.metrics.port, config.metrics.host, logger),
      ];
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all([infrastructure.close(), observability.tracing.close()]);
    failStartup(label, err, config);
  }

  // RE-06: this process purges what is past retention on its schedule; stopped before the pools close.
  const purge = schedulePurge({ db: infrastructure.db, clock: systemClock, logger, retention: config.retention });
  stopGracefullyOnSignals({
    servers,
    closeResources: async () => {
      await purge.stop();
      await Promise.all([infrastructure.close(), observability.tracing.close()]);
    },
    logger,
    timeoutMs: config.shutdownTimeoutMs,
  });
}
