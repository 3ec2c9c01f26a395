import { Router, type RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { authorizationErrorRedirect } from '../authorization-error-redirect.ts';
import { formBody } from '../../http/form-body.ts';
import { consentHandler } from './consent.handler.ts';

export const DECISION_PATH = '/oauth/authorize/decision';

/** The consent form's target. Its answer is a 303 to the client (CJ-03). */
export function consentRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();
  router.post(DECISION_PATH, formBody, session, consentHandler(deps));
  router.use(authorizationErrorRedirect(deps));
  return router;
}
