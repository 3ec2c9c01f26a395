import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '@latchkey/config';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import { RETRY_AFTER_SECONDS } from './classify-error.ts';
import { isDraining } from './draining.ts';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/**
 * A readiness check never takes longer than this, whatever the dependency timeouts: a probe
 * that hangs is a probe the load balancer counts as failed anyway, later.
 */
const MAX_CHECK_MS = 2_000;

export type CheckOutcome = 'ok' | 'unavailable' | 'timeout' | 'not configured';

export interface HealthOptions {
  db: Db;
  /** Checked with PING when set (the @latchkey/sessions client); "not configured" otherwise. */
  redis?: { ping(): Promise<unknown> } | undefined;
  /** Each check takes at most its dependency's timeout, and never more than 2 s. */
  config: Pick<Config, 'databaseTimeoutMs' | 'redisTimeoutMs'>;
  /** Told when a dependency stops (or starts again) answering the checks. */
  logger: Logger;
}

/** Connect-style middleware on plain node:http: answers the probes, passes anything else on. */
export type HealthEndpoints = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The path is one of the probes (the request logger writes those at debug). */
export function isProbe(path: string): boolean {
  return path === HEALTH_PATH || path === READY_PATH;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  // A cached "ready" would hide an outage from the next probe.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Runs `check`, giving up after `timeoutMs`; any failure is an outcome, never a throw. */
async function bounded(
  check: () => Promise<unknown>,
  timeoutMs: number,
): Promise<Exclude<CheckOutcome, 'not configured'>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Shares one run of a check between the probes that arrive while it is under way (each probe
 * keeps its own time limit), so a probe storm against a hanging database holds at most one
 * connection, not one per probe or per timeout.
 */
function coalesced(run: () => Promise<unknown>): () => Promise<unknown> {
  let pending: Promise<unknown> | undefined;
  return () => {
    pending ??= Promise.resolve()
      .then(run)
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

/**
 * `GET /healthz` and `GET /readyz` (issue 4), the same on the three servers. /healthz says
 * the process answers HTTP and checks nothing, so a database outage never gets the process
 * restarted. /readyz checks what a request needs: the database (a one-row read of a real
 * table: `SELECT 1` would not notice a SQLite file that became unreadable) and Redis (PING)
 * when REDIS_URL is set, each within its timeout, and answers 503 with Retry-After during a
 * graceful shutdown. Answers name each check's outcome, never an error message, a URL or a
 * stack. Mounted ahead of sessions and rate limits: a probe neither creates nor reads a
 * session, and is never limited.
 */
export function healthEndpoints(options: HealthOptions): HealthEndpoints {
  const { db, redis, logger, config } = options;
  const queryDatabase = coalesced(() => db.selectFrom('locks').select('key').limit(1).execute());
  const pingRedis = coalesced(() => redis!.ping());
  const checkDatabase = () => bounded(queryDatabase, Math.min(config.databaseTimeoutMs, MAX_CHECK_MS));
  const checkRedis = () => bounded(pingRedis, Math.min(config.redisTimeoutMs, MAX_CHECK_MS));
  const last: Record<string, CheckOutcome> = { database: 'ok', redis: 'ok' };

  function remember(name: 'database' | 'redis', outcome: CheckOutcome): void {
    if (outcome === 'not configured' || last[name] === outcome) return;
    if (outcome === 'ok') logger.info({ check: name }, 'readiness check passes again');
    else logger.warn({ check: name, outcome }, 'readiness check failed');
    last[name] = outcome;
  }

  async function ready(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (isDraining(req)) {
      send(req, res, 503, { status: 'draining' });
      return;
    }
    const [database, cache] = await Promise.all([
      checkDatabase(),
      redis === undefined ? ('not configured' as const) : checkRedis(),
    ]);
    remember('database', database);
    remember('redis', cache);
    const passes = database === 'ok' && (cache === 'ok' || cache === 'not configured');
    send(req, res, passes ? 200 : 503, {
      status: passes ? 'ready' : 'unavailable',
      checks: { database, redis: cache },
    });
  }

  return (req, res, next) => {
    const path = pathOf(req);
    if (!isProbe(path)) {
      next();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      send(req, res, 405, { error: 'method_not_allowed', error_description: 'Use GET for this endpoint.' });
      return;
    }
    if (path === HEALTH_PATH) {
      send(req, res, 200, { status: 'ok' });
      return;
    }
    // The checks never throw; only writing the answer could (the client is gone).
    ready(req, res).catch(() => res.destroy());
  };
}
