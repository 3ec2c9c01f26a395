import type { Router, RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { formBody } from '../../http/form-body.ts';
import { signInRateLimits } from '../../http/rate-limit.ts';
import { formPageRouter } from '../form-page.router.ts';
import { signInHandlers } from './signin.handler.ts';

/**
 * GET/POST /signin and POST /signout. Rate limits run before the session is loaded: per address,
 * per account with the device cookie's exemption (HD-13), and the per-account slow-down (HD-03).
 */
export function signInRouter(deps: AuthDeps, session: RequestHandler): Router {
  const handlers = signInHandlers(deps);
  const router = formPageRouter(
    '/signin',
    session,
    handlers,
    signInRateLimits(deps.config.rateLimit.loginPerMinute, deps),
  );
  router.post('/signout', formBody, session, handlers.signOut);
  return router;
}
