import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticateAccessToken, type Principal } from '@latchkey/core';
import { parseBearerAuthorization } from '@latchkey/http';
import type { AuthDeps } from '../deps.ts';
import { InsufficientScope, MalformedAuthorization, MissingToken } from './account.errors.ts';

/**
 * RFC 6750 §2.1 bearer authentication with any live access token (an OAuth token or a PAT):
 * the API's rule, the same strictness (one header, RFC 6750's grammar, nothing trimmed).
 * Failures are the account errors, rendered with their challenges by accountErrorHandler.
 */
export function requireAccessToken(deps: AuthDeps, missing: string): RequestHandler {
  return async function authenticateAccessTokenHeader(req: Request, res: Response, next: NextFunction): Promise<void> {
    const credentials = parseBearerAuthorization(req);
    if (credentials.kind === 'none') throw new MissingToken(missing);
    if (credentials.kind === 'malformed') throw new MalformedAuthorization(credentials.reason);
    res.locals.principal = await authenticateAccessToken(deps.db, deps.clock, credentials.token);
    next();
  };
}

/**
 * DD-8: the account endpoints accept only access tokens issued to the portal's own
 * first-party client. A PAT or a third-party application's token is valid for the API but
 * can never list, create or revoke credentials or authorized applications (AA-07), so it gets
 * 403 `insufficient_scope`.
 */
export function requirePortalToken(deps: AuthDeps): RequestHandler[] {
  return [
    requireAccessToken(deps, 'Sign in through the portal to use the account endpoints.'),
    function requireFirstParty(_req: Request, res: Response, next: NextFunction): void {
      if (!principalOf(res).firstParty) {
        throw new InsufficientScope('Only the developer portal may manage account credentials.');
      }
      next();
    },
  ];
}

/** The authenticated portal user; only valid behind requirePortalToken. */
export function principalOf(res: Response): Principal {
  return res.locals.principal as Principal;
}
