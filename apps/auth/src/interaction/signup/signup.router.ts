import { Router, type RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { formBody } from '../../http/form-body.ts';
import { signUpRateLimit } from '../../http/rate-limit.ts';
import { signUpHandlers } from './signup.handler.ts';

/** GET/POST /signup. */
export function signUpRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();
  const handlers = signUpHandlers(deps);
  router.get('/signup', session, handlers.show);
  router.post(
    '/signup',
    formBody,
    signUpRateLimit(deps.config.rateLimit.loginPerMinute, deps),
    session,
    handlers.submit,
  );
  return router;
}
