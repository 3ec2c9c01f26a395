import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticateAccessToken, type Principal } from '@latchkey/core';
import type { AuthDeps } from '../deps.ts';
import { InsufficientScope, MalformedAuthorization, MissingToken } from './account.errors.ts';

// RFC 6750 §2.1: the scheme is case-insensitive (P-05); the credential is a b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const SCHEME = /^Bearer(?: |$)/i;

/**
 * D8: the account endpoints accept only access tokens issued to the portal's own
 * first-party client. A PAT or a third-party application's token is valid for the API but
 * can never list, create or revoke credentials, so it gets 403 `insufficient_scope`.
 */
export function requirePortalToken(deps: AuthDeps): RequestHandler {
  return async function authenticatePortalToken(req: Request, res: Response, next: NextFunction): Promise<void> {
    const header = req.headers.authorization;
    if (header === undefined || !SCHEME.test(header.trim())) {
      throw new MissingToken('Sign in through the portal to use the account endpoints.');
    }
    const match = BEARER.exec(header.trim());
    if (!match) throw new MalformedAuthorization('The Authorization header must be "Bearer <token>".');
    const principal = await authenticateAccessToken(deps.db, deps.clock, match[1]!);
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
