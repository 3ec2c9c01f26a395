import type { RequestHandler } from 'express';
import type { Options } from 'express-rate-limit';
import { inSequence, setNoStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { layeredLimit } from '../../http/rate-limit.ts';
import { RegistrationErrorCode } from './register.errors.ts';

const HOUR_MS = 60 * 60_000;

/** 429 in the OAuth JSON shape; express-rate-limit has already set Retry-After and the draft-8 RateLimit headers. */
const tooManyRegistrations: Options['handler'] = (_req, res) => {
  setNoStore(res);
  res.status(429).json({
    error: RegistrationErrorCode.tooManyRequests,
    error_description: 'Too many client registrations from this address. Wait before registering another.',
  });
};

/**
 * DR-14: registrations per client address, an hour (RATE_LIMIT_REGISTER_PER_HOUR). Every
 * attempt counts, refused ones too: each costs a lookup and, in `token` mode, is a guess at an
 * initial access token. In-process always, and with Redis counted across instances as well
 * (layeredLimit, D-8), like the sign-in and token limits.
 */
export function registerRateLimit(deps: AuthDeps): RequestHandler {
  return inSequence(
    layeredLimit(
      {
        identifier: 'register-address',
        windowMs: HOUR_MS,
        limit: deps.config.dynamicClientRegistration.perHour,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        handler: tooManyRegistrations,
      },
      deps,
    ),
  );
}
