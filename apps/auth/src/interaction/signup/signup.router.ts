import type { Router, RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { signUpRateLimit } from '../../http/rate-limit.ts';
import { formPageRouter } from '../form-page.router.ts';
import { signUpHandlers } from './signup.handler.ts';

/** GET/POST /signup. */
export function signUpRouter(deps: AuthDeps, session: RequestHandler): Router {
  return formPageRouter('/signup', session, signUpHandlers(deps), [
    signUpRateLimit(deps.config.rateLimit.loginPerMinute, deps),
  ]);
}
