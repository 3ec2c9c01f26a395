import type { Request, RequestHandler } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import { slowDown } from 'express-slow-down';
import { RedisStore } from 'rate-limit-redis';
import { normalizeEmail } from '@latchkey/core';
import type { Logger } from '@latchkey/logging';
import { inSequence, type RedisClient } from '@latchkey/runtime';
import { prefersJson } from './error-handler.ts';
import { sendPage } from './send-page.ts';
import { errorPage } from './views/error-page.view.ts';

const WINDOW_MS = 60_000;
/** While Redis is down every limited request fails over to the floor: warn at most this often. */
const STORE_WARNING_INTERVAL_MS = 10_000;

/** Where a limit is shared across instances (D-8): set when REDIS_URL is. */
export interface SharedLimitDeps {
  redis?: RedisClient | undefined;
  logger: Logger;
}

/**
 * rate-limit-redis loads its Lua scripts once, when the limiter is created; if Redis is down
 * then, the failed load would be kept and every later call fail even after Redis returns.
 * This store loads a script again whenever the previous load failed.
 */
class RecoveringRedisStore extends RedisStore {
  override async increment(key: string) {
    this.incrementScriptSha = this.incrementScriptSha.catch(() => this.loadIncrementScript());
    return super.increment(key);
  }

  override async get(key: string) {
    this.getScriptSha = this.getScriptSha.catch(() => this.loadGetScript());
    return super.get(key);
  }
}

function storeWarnings(logger: Logger, identifier: string): NonNullable<Options['logger']> {
  let lastWarnedAt = -Infinity;
  const warn = (err: unknown, message?: string) => {
    const now = performance.now();
    if (now - lastWarnedAt < STORE_WARNING_INTERVAL_MS) return;
    lastWarnedAt = now;
    logger.warn(
      { limiter: identifier, error: err instanceof Error ? err.message : String(err) },
      `shared rate limit unavailable, in-process limit only: ${message ?? ''}`,
    );
  };
  return { warn, error: warn };
}

/**
 * One limit as D-8 wants it: the in-process limiter always, in front, as the floor that still
 * holds when Redis is down; and, with Redis, the same limit counted across every instance
 * (rate-limit-redis, its own key prefix). The shared one fails open (passOnStoreError): a
 * Redis outage must not lock everyone out of signing in, and the floor is still there.
 */
export function layeredLimit(
  options: Partial<Options> & { identifier: string },
  shared?: SharedLimitDeps,
): RequestHandler[] {
  const local = rateLimit(options);
  const redis = shared?.redis;
  if (!redis) return [local];
  const store = new RecoveringRedisStore({
    prefix: `lk:rl:${options.identifier}:`,
    sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<never>,
  });
  const cluster = rateLimit({
    ...options,
    identifier: `${options.identifier}-shared`,
    store,
    passOnStoreError: true,
    logger: storeWarnings(shared.logger, options.identifier),
  });
  return [local, cluster];
}

/**
 * 429 with Retry-After (set by express-rate-limit before this runs) and RateLimit headers
 * (draft-8); a page for browsers, JSON for scripts (express-rate-limit's default is text).
 */
const tooManyRequests: Options['handler'] = (req, res) => {
  const detail = 'Too many attempts from you in a short time. Wait a minute, then try again.';
  if (prefersJson(req)) {
    res.status(429).json({ error: 'too_many_requests', error_description: detail });
    return;
  }
  sendPage(res, 429, errorPage({ title: 'Too many attempts', detail, badge: 'Error 429' }));
};

function limiter(options: Partial<Options> & { identifier: string }, shared?: SharedLimitDeps): RequestHandler[] {
  return layeredLimit(
    { windowMs: WINDOW_MS, standardHeaders: 'draft-8', legacyHeaders: false, handler: tooManyRequests, ...options },
    shared,
  );
}

function submittedEmail(req: Request): string | undefined {
  const email = (req.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' && email.length > 0 && email.length <= 254 ? normalizeEmail(email) : undefined;
}

/** The per-account delay grows by this much per failure past the allowance, up to the cap. */
const ACCOUNT_DELAY_STEP_MS = 250;
const ACCOUNT_DELAY_MAX_MS = 4_000;

/**
 * Per account, failures from every address slow further attempts down, never refuse them
 * (HD-03): a hard per-email limit let anyone who knows an email lock its owner out for good,
 * 10 wrong passwords a minute from anywhere. Past the allowance each attempt for that email
 * waits a little longer (250 ms more per failure, at most 4 s), the right password included,
 * which caps how fast one account can be guessed without ever refusing its owner. With Redis
 * the failures are counted across instances; if Redis is down there is no delay (fail open),
 * and the hard limits per address and per (account, address) still hold.
 */
function accountSlowDown(perMinute: number, shared?: SharedLimitDeps): RequestHandler {
  const redis = shared?.redis;
  return slowDown({
    windowMs: WINDOW_MS,
    delayAfter: perMinute,
    delayMs: (used) => (used - perMinute) * ACCOUNT_DELAY_STEP_MS,
    maxDelayMs: ACCOUNT_DELAY_MAX_MS,
    skipSuccessfulRequests: true,
    skip: (req) => submittedEmail(req) === undefined,
    keyGenerator: (req) => `email:${submittedEmail(req)}`,
    ...(redis
      ? {
          store: new RecoveringRedisStore({
            prefix: 'lk:rl:signin-account-delay:',
            sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<never>,
          }),
          passOnStoreError: true,
          logger: storeWarnings(shared!.logger, 'signin-account-delay'),
        }
      : {}),
  });
}

/**
 * Brute force on sign-in (OAuth 2.1 §7.3.1 asks the same of client secrets): failures are
 * limited per address, hard, whatever the account, so one address can neither spray
 * passwords over many accounts nor keep guessing one (this bounds every (account, address)
 * pair too); and per account from every address, softly, with a growing delay that never
 * refuses the right password (HD-03). Only failures count: a user who signs in is never
 * slowed by their own successes. With Redis (`shared.redis`) each is counted across
 * instances, and the in-process hard limit stays in front (D-8). Must run after the body
 * parser.
 */
export function signInRateLimits(perMinute: number, shared?: SharedLimitDeps): RequestHandler[] {
  return [
    ...limiter({ identifier: 'signin-ip', limit: perMinute, skipSuccessfulRequests: true }, shared),
    accountSlowDown(perMinute, shared),
  ];
}

/** Sign-up counts every attempt per address: a success creates an account, which is what a spammer wants. */
export function signUpRateLimit(perMinute: number, shared?: SharedLimitDeps): RequestHandler {
  return inSequence(limiter({ identifier: 'signup-ip', limit: perMinute }, shared));
}
