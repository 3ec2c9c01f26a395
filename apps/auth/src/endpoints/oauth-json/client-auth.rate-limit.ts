import type { RequestHandler } from 'express';
import type { Options } from 'express-rate-limit';
import type { AuthDeps } from '../../deps.ts';
import { inSequence } from '@latchkey/http';
import { layeredLimit } from '../../http/rate-limit.ts';
import { hasAuthenticatedClient } from './client-auth.middleware.ts';
import { credentialsOf } from './client-credentials.ts';

export interface ClientAuthRateLimits {
  /** Failed client authentications per source address. */
  byAddress: RequestHandler;
  /**
   * Failed client authentications per claimed client_id, whatever the address (CA-07). Runs
   * after the credentials were checked and passes every request whose credentials are right:
   * client ids are public, so a limit that refused the right secret too would let anyone lock
   * any client (the portal included) out of the token endpoint (HD-01).
   */
  byClient: RequestHandler;
}

const WINDOW_MS = 60_000;

/** 429 with a JSON body; express-rate-limit has already set Retry-After and the draft-8 RateLimit headers. */
const tooManyFailures: Options['handler'] = (_req, res) => {
  res.status(429).json({
    error: 'slow_down',
    error_description: 'Too many failed client authentications. Wait before trying again.',
  });
};

function failedClientAuthLimiter(
  deps: AuthDeps,
  identifier: string,
  limit: number,
  options: Omit<Partial<Options>, 'identifier'>,
): RequestHandler {
  return inSequence(
    layeredLimit(
      {
        windowMs: WINDOW_MS,
        limit,
        identifier,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        // Only failed client authentications count, so a client's own traffic, its invalid_grant
        // answers and 503s never use up its allowance; a request that is still running counts
        // until it answers, which caps how many guesses a concurrent burst can make.
        skipSuccessfulRequests: true,
        requestWasSuccessful: (_req, res) => res.statusCode !== 401,
        handler: tooManyFailures,
        ...options,
      },
      deps,
    ),
  );
}

/**
 * OAuth 2.1 §2.4.1: an endpoint that checks client secrets MUST be protected against brute
 * force. Failures are counted per address (TK-RL-01) and, separately, per client_id, so neither rotating
 * addresses (CA-07) nor spraying many client ids from one address escapes; one client's
 * failures never touch another client's allowance. Over the per-address limit an address is
 * refused outright; over the per-client limit only failing attempts are (HD-01). With Redis each count is shared by every
 * instance, and the in-process limiter stays in front of it, so the limit still holds per
 * instance when Redis is down (D-8, R-08).
 */
export function clientAuthRateLimits(deps: AuthDeps): ClientAuthRateLimits {
  const perMinute = deps.config.rateLimit.tokenPerMinute;
  return {
    byAddress: failedClientAuthLimiter(deps, 'client-auth-address', perMinute, {}),
    byClient: failedClientAuthLimiter(deps, 'client-auth-client', perMinute, {
      skip: (_req, res) => credentialsOf(res)?.clientId === undefined || hasAuthenticatedClient(res),
      keyGenerator: (_req, res) => `client:${credentialsOf(res)?.clientId ?? ''}`,
    }),
  };
}
