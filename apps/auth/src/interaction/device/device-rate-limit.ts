import type { RequestHandler } from 'express';
import type { Options } from 'express-rate-limit';
import { layeredLimit, type SharedLimitDeps } from '../../http/rate-limit.ts';
import { prefersJson } from '../../http/error-handler.ts';
import { sendPage } from '../../http/send-page.ts';
import { errorPage } from '../../http/views/error-page.view.ts';

const WINDOW_MS = 60_000;

const tooManyCodes: Options['handler'] = (req, res) => {
  const detail = 'Too many wrong codes from you in a short time. Wait a minute, then try again.';
  if (prefersJson(req)) {
    res.status(429).json({ error: 'too_many_requests', error_description: detail });
    return;
  }
  sendPage(res, 429, errorPage({ title: 'Too many attempts', detail, badge: 'Error 429' }));
};

/**
 * DV-16 (RFC 8628 §5.1): a user code has about 34 bits, so guessing one must be slowed. Wrong
 * codes are limited per address, as sign-in failures are (same per-minute allowance): each
 * submission counts, and a good one (a 303 onwards) is given back. With Redis the count is
 * shared across instances and the in-process limit stays in front (D-8). 429 with Retry-After.
 */
export function deviceCodeRateLimit(perMinute: number, shared?: SharedLimitDeps): RequestHandler[] {
  return layeredLimit(
    {
      identifier: 'device-code-ip',
      windowMs: WINDOW_MS,
      limit: perMinute,
      skipSuccessfulRequests: true,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: tooManyCodes,
    },
    shared,
  );
}
