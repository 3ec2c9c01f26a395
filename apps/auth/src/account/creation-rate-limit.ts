import type { RequestHandler } from 'express';
import type { Options } from 'express-rate-limit';
import { inSequence } from '@latchkey/http';
import type { AuthDeps } from '../deps.ts';
import { layeredLimit } from '../http/rate-limit.ts';
import { TooManyCreations } from './account.errors.ts';
import { principalOf } from './require-portal-token.middleware.ts';

const WINDOW_MS = 10 * 60_000;

/** Over the limit: the account error handler answers 429 in the account shape; Retry-After is already set. */
const refuse: Options['handler'] = (_req, _res, next) => {
  next(
    new TooManyCreations(
      'You have created many clients, secrets and tokens in a short time. Wait a few minutes, then try again.',
    ),
  );
};

/** One limiter per app, so that clients, client secrets and tokens draw on the same allowance (one store). */
const limiters = new WeakMap<AuthDeps, RequestHandler>();

/**
 * HD-14: creations of clients, client secrets and personal access tokens through /account,
 * together, per user (not per address: every portal request comes from the BFF's), RATE_LIMIT_CREATE_PER_10_MINUTES
 * per 10 minutes. Only creations that succeed count: a form sent back for a bad redirect URL,
 * or refused at the cap, stores nothing; a request still running counts until it answers, so a
 * concurrent burst cannot get past it. In-process always, and across instances with Redis
 * (layeredLimit, D-8). Runs after the portal token was checked: the key is its user.
 */
export function creationRateLimit(deps: AuthDeps): RequestHandler {
  let limiter = limiters.get(deps);
  if (limiter === undefined) {
    limiter = inSequence(
      layeredLimit(
        {
          identifier: 'account-create',
          windowMs: WINDOW_MS,
          limit: deps.config.rateLimit.createPer10Minutes,
          standardHeaders: 'draft-8',
          legacyHeaders: false,
          skipFailedRequests: true,
          keyGenerator: (_req, res) => `user:${principalOf(res).userId}`,
          handler: refuse,
        },
        deps,
      ),
    );
    limiters.set(deps, limiter);
  }
  return limiter;
}
