import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  DisconnectsClientError,
  ErrorReply,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from 'redis';
import type { Config } from '@latchkey/config';
import { isNetworkErrorCode } from '@latchkey/db';
import { DependencyUnavailableError } from '@latchkey/http';
import type { Logger } from '@latchkey/logging';
import type { Tracing } from '@latchkey/observability';
import { healthStateOf, shareHealthState, type HealthState, type RedisHealth } from './redis-health.ts';

export type RedisClient = ReturnType<typeof createClient>;

/** The health of a client made by createRedisClient (redis-health.ts). */
export function redisHealth(client: RedisClient): RedisHealth {
  return healthStateOf(client);
}

/** Reconnect attempts back off exponentially up to this pause, and never stop. */
const MAX_RECONNECT_DELAY_MS = 2_000;
/** A repeated Redis error is logged at most this often; a new kind of error at once. */
const ERROR_LOG_INTERVAL_MS = 10_000;
/**
 * Commands waiting for a reply or to be written. Past it a command fails at once instead of
 * piling up behind a Redis that stopped answering (R-07: no queue that grows forever).
 */
const MAX_QUEUED_COMMANDS = 1_000;

/** Replies that mean "Redis cannot serve right now", not "this command is wrong". */
const UNAVAILABLE_REPLIES = /^(?:LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b/;

/** These manage the connection itself; their promises are not commands to time-bound. */
const LIFECYCLE = new Set<PropertyKey>(['connect', 'close', 'quit', 'QUIT', 'disconnect']);

/** node-redis's errors for "no usable connection" (its own, and the socket's). */
const CONNECTION_ERRORS = [
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
];
function isUnavailability(err: unknown): boolean {
  if (err instanceof ErrorReply) return UNAVAILABLE_REPLIES.test(err.message);
  if (CONNECTION_ERRORS.some((type) => err instanceof type)) return true;
  if (!(err instanceof Error)) return false;
  // The bounded command queue (MAX_QUEUED_COMMANDS) rejects with a plain Error.
  return isNetworkErrorCode((err as { code?: unknown }).code) || err.message === 'The queue is full';
}

/**
 * Redis's failure as the HTTP edge understands it: connection refused or reset, no answer in
 * time, the client offline while it reconnects, its queue full, a server still loading all
 * become DependencyUnavailableError('redis') → 503 with Retry-After (D-10). Anything else (an
 * error reply to a wrong command, a bad argument) stays what it is: a bug, not an outage.
 */
export function redisFailure(err: unknown): unknown {
  if (err instanceof DependencyUnavailableError || !isUnavailability(err)) return err;
  const reason = err instanceof Error ? err.message : 'unknown error';
  return new DependencyUnavailableError('redis', `Redis is unavailable: ${reason}`, { cause: err });
}

/** The URL as it may appear in a log line: the password, if any, replaced. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '[unparseable REDIS_URL]';
  }
}

function passwordOf(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === '' ? undefined : password;
  } catch {
    return undefined;
  }
}

function timeBound<T>(promise: Promise<T>, timeoutMs: number, health: HealthState): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      health.set(false);
      reject(
        new DependencyUnavailableError('redis', `Redis did not answer within ${timeoutMs} ms`, {
          cause: new Error('redis command timeout'),
        }),
      );
    }, timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        health.set(true);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        const failure = redisFailure(err);
        // An error reply is an answer: Redis is up, the command was wrong.
        health.set(!(failure instanceof DependencyUnavailableError));
        reject(failure);
      },
    );
  });
}

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The client as the apps use it: every command answers within `timeoutMs` or fails with
 * DependencyUnavailableError('redis'), and every availability failure is that error. node-redis
 * 5's own `timeout` command option stops counting once a command is written to the socket, so
 * a Redis that hangs (SIGSTOP) after accepting the command would hold the caller forever;
 * this bound holds whatever the socket does. `close()` drops the connection at once (closeNow).
 */
function guardRedisClient(client: RedisClient, timeoutMs: number, tracing: Tracing | undefined): RedisClient {
  const traced = tracing?.enabled === true ? tracing : undefined;
  const health = healthStateOf(client);
  const guarded = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'close') return () => closeNow(target);
      if (LIFECYCLE.has(property)) return (value as (...args: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = (value as (...args: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          throw redisFailure(err);
        }
        if (!isThenable(result)) return result;
        const bounded = timeBound(result, timeoutMs, health);
        return traced === undefined ? bounded : traceCommand(traced, property, bounded);
      };
    },
  });
  shareHealthState(guarded, health);
  return guarded;
}

/**
 * Called once the servers have stopped, so no request waits for a reply any more: the
 * connection is dropped at once. node-redis's close() would wait for pending commands, for
 * ever on a hung Redis, and after it destroy() can no longer drop the socket.
 */
function closeNow(client: RedisClient): Promise<void> {
  if (client.isOpen) client.destroy();
  return Promise.resolve();
}

export interface RedisClientOptions {
  url: string;
  /** Connect timeout, and the longest a command may take (config.redisTimeoutMs). */
  timeoutMs: number;
  logger: Logger;
  /** OB-09: with tracing on, each command is a client span. */
  tracing?: Tracing | undefined;
}

/**
 * OB-09: a client span `redis <command>` around a command made while tracing is on, with the
 * command's name and never its arguments (the keys hold session ids, the values sessions). A
 * failed command marks its span failed with the error's class, never its message.
 */
function traceCommand(tracing: Tracing, property: PropertyKey, reply: Promise<unknown>): Promise<unknown> {
  const command = String(property);
  const span = tracing.startSpan(`redis ${command}`, 'client', {
    'db.system.name': 'redis',
    'db.operation.name': command.toUpperCase(),
  });
  return reply.then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      span.end(err);
      throw err;
    },
  );
}

/**
 * A node-redis 5 client tuned for R-07, not yet connected, already guarded (guardRedisClient):
 * - no offline queue: while reconnecting a command fails at once instead of waiting;
 * - a bounded command queue (MAX_QUEUED_COMMANDS);
 * - a connect timeout and a socket idle timeout of `timeoutMs`, with a PING every half of
 *   it, so a Redis that stops answering is noticed and the socket dropped and reopened;
 * - reconnects forever with capped exponential back-off and jitter: a Redis outage is never
 *   fatal, and the client recovers when Redis returns without restarting the process;
 * - errors logged without the URL's password, a repeated error at most every 10 s.
 */
export function createRedisClient(options: RedisClientOptions): RedisClient {
  const { url, timeoutMs, logger } = options;
  const raw = createClient({
    url,
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    // node-redis 5.9 ignores failures of its CLIENT SETINFO handshake: a socket that dies
    // during it (Redis hung) is declared ready anyway and the client never reconnects.
    disableClientInfo: true,
    pingInterval: Math.max(25, Math.floor(timeoutMs / 2)),
    // Also drops commands that could not even be written in time (e.g. a full socket buffer).
    commandOptions: { timeout: timeoutMs },
    socket: {
      connectTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      reconnectStrategy: (retries: number) =>
        Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(retries, 10)) + Math.floor(Math.random() * 100),
    },
  });
  const password = passwordOf(url);
  const target = redactRedisUrl(url);
  let lastMessage = '';
  let lastLoggedAt = 0;
  let down = false;
  const health = healthStateOf(raw);
  raw.on('error', (err: unknown) => {
    if (!raw.isReady) {
      down = true;
      health.set(false);
    }
    let message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (password) message = message.split(password).join('***');
    const now = Date.now();
    if (message === lastMessage && now - lastLoggedAt < ERROR_LOG_INTERVAL_MS) return;
    lastMessage = message;
    lastLoggedAt = now;
    logger.warn({ redis: target, error: message }, 'redis error');
  });
  // Restored once Redis answers a PING again, not on 'ready': a hung Redis still accepts
  // connections, so the client goes through 'ready' on each reconnect while it hangs.
  raw.on('ping-interval', () => {
    health.set(true);
    if (!down) return;
    down = false;
    lastMessage = '';
    logger.info({ redis: target }, 'redis connection restored');
  });
  raw.on('end', () => health.set(false));
  // Connected is not answering: up only once a PING comes back on the new connection.
  raw.on('ready', () => {
    raw.ping().then(
      () => health.set(true),
      () => undefined,
    );
  });
  return guardRedisClient(raw, timeoutMs, options.tracing);
}

/**
 * Connects to REDIS_URL when it is set (DD-7); undefined otherwise. Never hangs and
 * never fails because Redis is down: if it does not answer within config.redisTimeoutMs the
 * process starts anyway, commands fail fast (503) and the client keeps reconnecting in the
 * background until Redis returns.
 */
export async function connectRedis(
  config: Config,
  logger: Logger,
  tracing?: Tracing,
): Promise<RedisClient | undefined> {
  if (!config.redisUrl) return undefined;
  const client = createRedisClient({ url: config.redisUrl, timeoutMs: config.redisTimeoutMs, logger, tracing });
  const connected = client.connect().then(
    () => true,
    (err: unknown) => {
      logger.warn(
        { redis: redactRedisUrl(config.redisUrl!), error: String(redisFailure(err)) },
        'redis connect failed',
      );
      return false;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), config.redisTimeoutMs);
  });
  const ready = await Promise.race([connected, waited]);
  clearTimeout(timer);
  if (ready) {
    // Marks the client healthy before the apps subscribe to its health (redisHealth).
    await client.ping().catch(() => undefined);
  } else {
    logger.warn(
      { redis: redactRedisUrl(config.redisUrl) },
      'redis is not reachable yet: starting anyway, requests that need it get 503 until it is',
    );
  }
  return client;
}
