import { Router, type RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { formBody } from '../../http/form-body.ts';
import { signInRateLimits } from '../../http/rate-limit.ts';
import { signInHandlers } from './signin.handler.ts';

/**
 * GET/POST /signin and POST /signout. Rate limits run before the session is loaded: per address,
 * per account with the device cookie's exemption (HD-13), and the per-account slow-down (HD-03).
 */
export function signInRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();
  const handlers = signInHandlers(deps);
  router.get('/signin', session, handlers.show);
  router.post(
    '/signin',
    formBody,
    ...signInRateLimits(deps.config.rateLimit.loginPerMinute, deps),
    session,
    handlers.submit,
  );
  router.post('/signout', formBody, session, handlers.signOut);
  return router;
}
