import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import { authenticateAccessToken, InvalidToken, type Principal } from '@latchkey/core';
import { classifyError, parseBearerAuthorization } from '@latchkey/http';
import { tokenCheckCountersOf } from '@latchkey/observability';
import type { AuthDeps } from '../deps.ts';
import { InsufficientScope, MalformedAuthorization, MissingToken } from './account.errors.ts';

/**
 * RFC 6750 §2.1 bearer authentication with any live access token (an OAuth token or a PAT):
 * the API's rule, the same strictness (one header, RFC 6750's grammar, nothing trimmed).
 * RS-23: like the API (RS-06), only a token for Latchkey itself: one minted for another
 * resource server (RFC 8707) is `invalid_token` here, so that server cannot replay it to read
 * the user's claims. Failures are the account errors, rendered with their challenges by
 * accountErrorHandler. OB-02: each presented token's check is counted by outcome, as the API
 * counts its own.
 */
export function requireAccessToken(deps: AuthDeps, missing: string): RequestHandler {
  const checks = tokenCheckCountersOf(deps.observability!.metrics);
  return async function authenticateAccessTokenHeader(req: Request, res: Response, next: NextFunction): Promise<void> {
    const credentials = parseBearerAuthorization(req);
    if (credentials.kind === 'none') throw new MissingToken(missing);
    if (credentials.kind === 'malformed') throw new MalformedAuthorization(credentials.reason);
    let principal: Principal;
    try {
      principal = await authenticateAccessToken(deps.db, deps.clock, credentials.token);
    } catch (err) {
      if (err instanceof InvalidToken) checks[err.reason].inc();
      else if (classifyError(err).kind === 'dependency') checks.unavailable.inc();
      throw err;
    }
    if (principal.audience !== LATCHKEY_API_AUDIENCE) {
      checks.invalid.inc();
      throw new InvalidToken('The access token is not for this server: it was issued for another resource server.');
    }
    res.locals.principal = principal;
    checks.ok.inc();
    next();
  };
}

/**
 * SC-08 (which replaced DD-8's "portal token" check): the account endpoints need the `account`
 * scope, which only the portal's own first-party client may hold (SC-01). A PAT or a third-party
 * application's token is valid for the API but can never list, create or revoke credentials or
 * authorized applications (AA-07), so it gets 403 `insufficient_scope`.
 */
export function requirePortalToken(deps: AuthDeps): RequestHandler[] {
  return [
    requireAccessToken(deps, 'Sign in through the portal to use the account endpoints.'),
    function requireAccountScope(_req: Request, res: Response, next: NextFunction): void {
      if (!principalOf(res).scopes.includes('account')) {
        throw new InsufficientScope('Only the developer portal may manage account credentials.', 'account');
      }
      next();
    },
  ];
}

/** The authenticated user; only valid behind requireAccessToken (and so requirePortalToken). */
export function principalOf(res: Response): Principal {
  return res.locals.principal as Principal;
}
