import type { Request, RequestHandler } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import { normalizeEmail } from '@latchkey/core';
import { prefersJson } from './error-handler.ts';
import { sendPage } from './send-page.ts';
import { errorPage } from './views/error-page.view.ts';

const WINDOW_MS = 60_000;

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

function limiter(options: Partial<Options>): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: tooManyRequests,
    ...options,
  });
}

function submittedEmail(req: Request): string | undefined {
  const email = (req.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' && email.length > 0 && email.length <= 254 ? normalizeEmail(email) : undefined;
}

/**
 * Brute force on sign-in is limited per address and per account, so neither rotating
 * addresses nor spraying one password over many accounts escapes (OAuth 2.1 §7.3.1 asks the
 * same of client secrets). Only failures count: a user who signs in is never locked out by
 * their own successes. The in-process store is kept even when Redis arrives (D-8).
 * Must run after the body parser.
 */
export function signInRateLimits(perMinute: number): RequestHandler[] {
  return [
    limiter({ identifier: 'signin-ip', limit: perMinute, skipSuccessfulRequests: true }),
    limiter({
      identifier: 'signin-account',
      limit: perMinute,
      skipSuccessfulRequests: true,
      skip: (req) => submittedEmail(req) === undefined,
      keyGenerator: (req) => `email:${submittedEmail(req)}`,
    }),
  ];
}

/** Sign-up counts every attempt per address: a success creates an account, which is what a spammer wants. */
export function signUpRateLimit(perMinute: number): RequestHandler {
  return limiter({ identifier: 'signup-ip', limit: perMinute });
}
