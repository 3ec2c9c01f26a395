import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticateAccessToken, type Principal } from '@latchkey/core';
import { parseBearerAuthorization } from '@latchkey/runtime';
import type { AuthDeps } from '../deps.ts';
import { InsufficientScope, MalformedAuthorization, MissingToken } from './account.errors.ts';

/**
 * DD-8: the account endpoints accept only access tokens issued to the portal's own
 * first-party client. A PAT or a third-party application's token is valid for the API but
 * can never list, create or revoke credentials, so it gets 403 `insufficient_scope`.
 */
export function requirePortalToken(deps: AuthDeps): RequestHandler {
  return async function authenticatePortalToken(req: Request, res: Response, next: NextFunction): Promise<void> {
    // The API's rule, the same strictness: one header, RFC 6750's grammar, nothing trimmed.
    const credentials = parseBearerAuthorization(req);
    if (credentials.kind === 'none') throw new MissingToken('Sign in through the portal to use the account endpoints.');
    if (credentials.kind === 'malformed') throw new MalformedAuthorization(credentials.reason);
    const principal = await authenticateAccessToken(deps.db, deps.clock, credentials.token);
    if (!principal.firstParty) {
      throw new InsufficientScope('Only the developer portal may manage account credentials.');
    }
    res.locals.principal = principal;
    next();
  };
}

/** The authenticated portal user; only valid behind requirePortalToken. */
export function principalOf(res: Response): Principal {
  return res.locals.principal as Principal;
}
