import type { ErrorRequestHandler, Response } from 'express';
import type { AuthDeps } from '../deps.ts';
import { isDependencyFailure } from '@latchkey/http';
import { redirectWithError, type AuthorizationRedirect } from './authorization-response.ts';
import { AuthorizationError, AuthorizationErrorCode, InvalidAuthorizationRequest } from './authorize.errors.ts';

/** Set once the client and redirect URI are verified; from then on errors may go to the client. */
export function markRedirectVerified(res: Response, target: AuthorizationRedirect): void {
  res.locals.authorizationRedirect = target;
}

/**
 * RFC 6749 §4.1.2.1: errors after the redirect URI is verified go back to the client with
 * `state` and `iss`; a database failure there becomes `temporarily_unavailable` (AZ-22).
 * Before verification nothing is redirected: the global handler renders a page.
 */
export function authorizationErrorRedirect(deps: AuthDeps): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    const target = res.locals.authorizationRedirect as AuthorizationRedirect | undefined;
    if (res.headersSent) {
      next(err);
      return;
    }
    if (target && err instanceof AuthorizationError) {
      redirectWithError(res, deps.config.auth.url, target, err.code, err.description);
      return;
    }
    if (target && isDependencyFailure(err)) {
      deps.logger.error({ err, path: req.path }, 'authorization failed: dependency unavailable');
      // The session cannot be saved either; express-session skips it when req.session is gone.
      (req as { session?: unknown }).session = undefined;
      redirectWithError(
        res,
        deps.config.auth.url,
        target,
        AuthorizationErrorCode.temporarilyUnavailable,
        'The service is temporarily unavailable. Try again later.',
      );
      return;
    }
    if (err instanceof AuthorizationError) {
      next(new InvalidAuthorizationRequest(err.description));
      return;
    }
    next(err);
  };
}
