import type { RequestHandler, Response } from 'express';
import { rateLimit, type Options, type RateLimitInfo } from 'express-rate-limit';
import { slowDown } from 'express-slow-down';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '@latchkey/logging';
import { boundCounter, type CounterChild, type Observability } from '@latchkey/observability';
import { inSequence } from '@latchkey/http';
import type { RedisClient } from '@latchkey/sessions';
import { accountDigest, knownDeviceFor, type DeviceCookieDeps } from './device-cookie.ts';
import { prefersJson } from './error-handler.ts';
import { sendPage } from './send-page.ts';
import { errorPage, type ErrorPageOptions } from './views/error-page.view.ts';

const WINDOW_MS = 60_000;
/** While Redis is down every limited request fails over to the floor: warn at most this often. */
const STORE_WARNING_INTERVAL_MS = 10_000;

/** Where a limit is shared across instances (D-8): set when REDIS_URL is. */
export interface SharedLimitDeps {
  redis?: RedisClient | undefined;
  logger: Logger;
  /** OB-05: where refusals are counted (latchkey_rate_limited_total{limit}); AuthDeps carries it. */
  observability?: Observability | undefined;
}

/**
 * OB-05: the limit's handler, counting each refusal under the limit's name (its identifier,
 * a fixed string: never the key, which may hold an address, a client id or an account digest).
 * The child is bound here, once per limiter. `also` counts it a second time elsewhere (a
 * refused sign-in is a sign-in outcome too: OB-04).
 */
function countedRefusal(
  options: Partial<Options> & { identifier: string },
  shared: SharedLimitDeps | undefined,
  also: CounterChild | undefined,
): Options['handler'] | undefined {
  const refuse = options.handler;
  const metrics = shared?.observability?.metrics;
  if (refuse === undefined || metrics === undefined) return refuse;
  const refusals = boundCounter(metrics.rateLimited, options.identifier);
  return (req, res, next, optionsUsed) => {
    refusals.inc();
    also?.inc();
    refuse(req, res, next, optionsUsed);
  };
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
  also?: CounterChild,
): RequestHandler[] {
  // Both layers share the counting handler: whichever refuses, the refusal is counted once.
  const handler = countedRefusal(options, shared, also);
  if (handler !== undefined) options = { ...options, handler };
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

function limiter(
  options: Partial<Options> & { identifier: string },
  shared?: SharedLimitDeps,
  also?: CounterChild,
): RequestHandler[] {
  return layeredLimit(
    { windowMs: WINDOW_MS, standardHeaders: 'draft-8', legacyHeaders: false, handler: tooManyRequests, ...options },
    shared,
    also,
  );
}

const HOUR_MS = 60 * 60_000;

/**
 * HD-13: failed sign-ins per account are capped at this many times the per-address limit a
 * minute, an hour: 100 an hour at the default of 10 (NIST SP 800-63B §5.2.2: at most 100
 * consecutive failures). Derived from RATE_LIMIT_LOGIN_PER_MINUTE so tests can exercise it.
 */
const ACCOUNT_FAILURES_PER_HOUR_PER_LOGIN_LIMIT = 10;
/**
 * HD-13: a browser with a device cookie for the account is trusted past the cap only while its
 * own failures for that account stay within the per-address limit a minute, an hour (10 at the
 * default): a stolen device cookie is not a licence to keep guessing.
 */
const DEVICE_FAILURES_PER_HOUR_PER_LOGIN_LIMIT = 1;

/** The per-account delay grows by this much per failure past the allowance, up to the cap. */
const ACCOUNT_DELAY_STEP_MS = 250;
const ACCOUNT_DELAY_MAX_MS = 4_000;

/**
 * HD-16: sign-ups that hit an existing account, per address, an hour. Each one says the email
 * has an account (sign-up cannot answer alike, see signup.handler.ts), so they are limited
 * hard: 5 an hour, where the owner who forgot they signed up needs one.
 */
const SIGNUP_EXISTING_ACCOUNT_PER_HOUR = 5;

type Refusal = Pick<ErrorPageOptions, 'title' | 'detail'>;

/**
 * A refusal like tooManyRequests, for limiters that send no RateLimit headers (they would tell
 * anyone how many failures an account has had): Retry-After from the window's reset.
 */
function refuse({ title, detail }: Refusal, propertyName: string): Options['handler'] {
  return (req, res) => {
    const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[propertyName];
    const resetSeconds = info?.resetTime ? Math.ceil((info.resetTime.getTime() - Date.now()) / 1000) : 0;
    res.setHeader('Retry-After', String(Math.max(1, resetSeconds)));
    if (prefersJson(req)) {
      res.status(429).json({ error: 'too_many_requests', error_description: detail });
      return;
    }
    sendPage(res, 429, errorPage({ title, detail, badge: 'Error 429' }));
  };
}

/** Who a sign-in attempt is for, and whether the browser signed in to that account before. */
interface SignInAttempt {
  /** The account's digest (device-cookie.ts), for a well-formed email; any email, known or not. */
  account: string;
  /** The device id of a browser that signed in to the account before and is still trusted. */
  device: string | undefined;
}

function signInAttempt(res: Response): SignInAttempt | undefined {
  return res.locals.signInAttempt as SignInAttempt | undefined;
}

function identifySignInAttempt(deps: DeviceCookieDeps): RequestHandler {
  return (req, res, next) => {
    const email = (req.body as Record<string, unknown> | undefined)?.email;
    if (typeof email === 'string' && email.length > 0 && email.length <= 254) {
      const account = accountDigest(deps, email);
      res.locals.signInAttempt = { account, device: knownDeviceFor(deps, req, account) } satisfies SignInAttempt;
    }
    next();
  };
}

function sharedStoreOptions(
  identifier: string,
  shared?: SharedLimitDeps,
): Partial<Pick<Options, 'store' | 'passOnStoreError' | 'logger'>> {
  const redis = shared?.redis;
  if (!redis) return {};
  return {
    store: new RecoveringRedisStore({
      prefix: `lk:rl:${identifier}:`,
      sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<never>,
    }),
    passOnStoreError: true,
    logger: storeWarnings(shared.logger, identifier),
  };
}

/**
 * Per account, failures from every address slow further attempts down, never refuse them
 * (HD-03): a hard per-email limit let anyone who knows an email lock its owner out for good,
 * 10 wrong passwords a minute from anywhere. Past the allowance each attempt for that email
 * waits a little longer (250 ms more per failure, at most 4 s), the right password included.
 * The count is taken before the delay is worked out (express-slow-down increments first), so
 * attempts sent at once each see their own place in line. This bounds each attempt's latency,
 * not the rate: concurrent guesses all wait at most 4 s, which is why the hourly cap (HD-13)
 * is there. A browser the owner signed in with (HD-13's device cookie) is not slowed. With
 * Redis the failures are counted across instances; if Redis is down there is no delay (fail
 * open), and the hard limits per address and per (account, address) still hold.
 */
function accountSlowDown(perMinute: number, shared?: SharedLimitDeps): RequestHandler {
  return slowDown({
    windowMs: WINDOW_MS,
    delayAfter: perMinute,
    delayMs: (used) => (used - perMinute) * ACCOUNT_DELAY_STEP_MS,
    maxDelayMs: ACCOUNT_DELAY_MAX_MS,
    skipSuccessfulRequests: true,
    skip: (_req, res) => signInAttempt(res) === undefined || signInAttempt(res)!.device !== undefined,
    keyGenerator: (_req, res) => `account:${signInAttempt(res)!.account}`,
    ...sharedStoreOptions('signin-account-delay', shared),
  });
}

/**
 * HD-13: the browser's device cookie counts its own failures for the account; past
 * DEVICE_FAILURES_PER_HOUR_PER_LOGIN_LIMIT × perMinute in an hour the browser is treated as
 * unknown (the account cap then applies to it), never refused for that alone.
 */
function deviceFailures(perMinute: number, shared?: SharedLimitDeps): RequestHandler[] {
  return layeredLimit(
    {
      identifier: 'signin-device',
      windowMs: HOUR_MS,
      limit: DEVICE_FAILURES_PER_HOUR_PER_LOGIN_LIMIT * perMinute,
      skipSuccessfulRequests: true,
      standardHeaders: false,
      legacyHeaders: false,
      requestPropertyName: 'deviceLimit',
      skip: (_req, res) => signInAttempt(res)?.device === undefined,
      keyGenerator: (_req, res) => `device:${signInAttempt(res)!.device}:${signInAttempt(res)!.account}`,
      handler: (_req, res, next) => {
        signInAttempt(res)!.device = undefined;
        next();
      },
    },
    // Reaching it refuses nothing (the browser is only treated as unknown): not a refusal (OB-05).
    shared && { ...shared, observability: undefined },
  );
}

/**
 * HD-13: failed sign-ins per account, from every address, are capped at
 * ACCOUNT_FAILURES_PER_HOUR_PER_LOGIN_LIMIT × perMinute an hour. Past the cap an attempt from
 * a browser that never signed in to the account is refused (429) without the password being
 * checked; a browser with a device cookie for it is neither counted nor refused, so whoever
 * guesses cannot lock the owner out of the browsers they use (HD-03). The count goes up before
 * the attempt is checked and down again on success, atomically in the store, so concurrent
 * guesses cannot slip past it. Unknown emails are counted alike: the refusal says nothing
 * about whether an account exists.
 */
function accountFailureCap(perMinute: number, shared?: SharedLimitDeps, also?: CounterChild): RequestHandler[] {
  return layeredLimit(
    {
      identifier: 'signin-account',
      windowMs: HOUR_MS,
      limit: ACCOUNT_FAILURES_PER_HOUR_PER_LOGIN_LIMIT * perMinute,
      skipSuccessfulRequests: true,
      standardHeaders: false,
      legacyHeaders: false,
      requestPropertyName: 'accountLimit',
      skip: (_req, res) => signInAttempt(res) === undefined || signInAttempt(res)!.device !== undefined,
      keyGenerator: (_req, res) => `account:${signInAttempt(res)!.account}`,
      handler: refuse(
        {
          title: 'Too many failed sign-ins',
          detail:
            'There have been too many failed attempts to sign in to this account. Try again later, or from a browser you have signed in with before.',
        },
        'accountLimit',
      ),
    },
    shared,
    also,
  );
}

/**
 * Brute force on sign-in (OAuth 2.1 §7.3.1 asks the same of client secrets): failures are
 * limited per address, hard, whatever the account, so one address can neither spray
 * passwords over many accounts nor keep guessing one (this bounds every (account, address)
 * pair too); per account from every address, softly, with a growing delay that never
 * refuses the right password (HD-03); and per account, hard, an hour, except for browsers the
 * owner signed in with (HD-13). Only failures count: a user who signs in is never slowed by
 * their own successes. With Redis (`deps.redis`) each is counted across instances, and the
 * in-process limits stay in front (D-8). Must run after the body parser.
 */
export function signInRateLimits(perMinute: number, deps: SharedLimitDeps & DeviceCookieDeps): RequestHandler[] {
  // OB-04: a sign-in refused by a limit is a sign-in outcome too, besides the limit's refusal.
  const metrics = deps.observability?.metrics;
  const refusedSignIn = metrics && boundCounter(metrics.signIns, 'rate_limited');
  return [
    ...limiter({ identifier: 'signin-ip', limit: perMinute, skipSuccessfulRequests: true }, deps, refusedSignIn),
    identifySignInAttempt(deps),
    ...deviceFailures(perMinute, deps),
    ...accountFailureCap(perMinute, deps, refusedSignIn),
    accountSlowDown(perMinute, deps),
  ];
}

/** Marks a sign-up that hit an existing account, for the HD-16 limit. */
export function markSignUpForExistingAccount(res: Response): void {
  res.locals.signUpForExistingAccount = true;
}

/**
 * Sign-up counts every attempt per address: a success creates an account, which is what a
 * spammer wants. HD-16: those that hit an existing account are limited further, per address
 * an hour, since each tells whether an email has an account. The count goes up before the
 * attempt and down again unless it hit an existing account, so concurrent probes cannot slip
 * past; past the limit every sign-up from that address is refused, whatever the email, so the
 * refusal tells nothing either.
 */
export function signUpRateLimit(perMinute: number, shared?: SharedLimitDeps): RequestHandler {
  return inSequence([
    ...limiter({ identifier: 'signup-ip', limit: perMinute }, shared),
    ...layeredLimit(
      {
        identifier: 'signup-existing-ip',
        windowMs: HOUR_MS,
        limit: SIGNUP_EXISTING_ACCOUNT_PER_HOUR,
        skipSuccessfulRequests: true,
        requestWasSuccessful: (_req, res) => res.locals.signUpForExistingAccount !== true,
        standardHeaders: false,
        legacyHeaders: false,
        requestPropertyName: 'signUpExistingLimit',
        handler: refuse(
          {
            title: 'Too many attempts',
            detail:
              'Too many attempts from you to create an account for an email that already has one. Sign in instead, or try again later.',
          },
          'signUpExistingLimit',
        ),
      },
      shared,
    ),
  ]);
}
