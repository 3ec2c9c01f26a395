import { Router, type RequestHandler } from 'express';
import { formBody } from '../http/form-body.ts';

/**
 * A page with a form, as the sign-in and sign-up pages are: GET shows it, POST submits it. The
 * POST's rate limits run on the parsed form and before the session is loaded.
 */
export function formPageRouter(
  path: string,
  session: RequestHandler,
  handlers: { show: RequestHandler; submit: RequestHandler },
  rateLimits: RequestHandler[],
): Router {
  const router = Router();
  router.get(path, session, handlers.show);
  router.post(path, formBody, ...rateLimits, session, handlers.submit);
  return router;
}
