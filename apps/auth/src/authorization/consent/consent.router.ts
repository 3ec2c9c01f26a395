import { Router, type RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { authorizationErrorRedirect } from '../authorization-error-redirect.ts';
import { formBody } from '../../http/form-body.ts';
import { consentHandler } from './consent.handler.ts';
import { switchAccountHandler } from './switch-account.handler.ts';

export const DECISION_PATH = '/oauth/authorize/decision';
export const SWITCH_ACCOUNT_PATH = '/oauth/authorize/switch-account';

/** The consent page's forms: the decision, a 303 to the client (CJ-03); switching account (CE-10). */
export function consentRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();
  router.post(DECISION_PATH, formBody, session, consentHandler(deps));
  router.post(SWITCH_ACCOUNT_PATH, formBody, session, switchAccountHandler(deps));
  router.use(authorizationErrorRedirect(deps));
  return router;
}
