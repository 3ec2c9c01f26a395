import { Router, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { TooManyRequests } from '../http/bff.errors.ts';
import { completeSignIn, type CallbackDeps } from './callback.handler.ts';
import { startSignIn } from './login.handler.ts';

/** A page reload can start a sign-in; a loop or a flood of starts cannot go far. */
const MIN_SIGN_IN_STARTS_PER_MINUTE = 60;

export interface OidcRouterDeps extends CallbackDeps {
  session: RequestHandler;
  portalOrigin: string;
}

/**
 * The portal's side of the authorization code flow: GET /bff/login and GET /bff/callback.
 * Both are top-level navigations, so they answer with redirects or small pages, never JSON.
 * No CSRF header here: the callback arrives from the authorization server, and its defence
 * is the transaction cookie plus `state` (RFC 9700 §4.7).
 */
export function oidcRouter(deps: OidcRouterDeps): Router {
  const router = Router();
  const signInStarts = rateLimit({
    windowMs: 60_000,
    limit: Math.max(MIN_SIGN_IN_STARTS_PER_MINUTE, deps.config.rateLimit.loginPerMinute),
    identifier: 'portal-sign-in-start',
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) =>
      next(new TooManyRequests('Too many sign-in attempts. Wait a minute, then try again.')),
  });
  // The session is loaded (not used) so that a session store that is down answers 503 here,
  // before the user is sent to sign in for a session that could not be stored (BF-RD-01).
  // The sign-in-start limit stays per instance: it guards each instance's own work, and
  // needs no shared store that could fail.
  router.get('/bff/login', signInStarts, deps.session, startSignIn(deps.client, deps.transactions, deps.portalOrigin));
  router.get('/bff/callback', deps.session, completeSignIn(deps));
  return router;
}
