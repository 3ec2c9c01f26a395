import type { Request, Response } from 'express';
import { formatScope } from '@latchkey/contracts';
import type { AuthDeps } from '../../deps.ts';
import { assertCsrfToken, CSRF_FIELD } from '../../http/csrf.ts';
import { CsrfRejected } from '../../http/page-error.ts';
import { endBrowserSession } from '../../interaction/end-session.ts';
import { AUTHORIZE_PATH } from '../authorize.router.ts';
import { findPendingAuthorization, type PendingAuthorization } from '../pending-authorization.ts';

/** The authorization request as the application sent it, rebuilt from what was verified. */
function authorizeUrlOf(pending: PendingAuthorization): string {
  const params = new URLSearchParams({
    client_id: pending.clientId,
    response_type: 'code',
    redirect_uri: pending.redirectUri,
    // The scopes the request was verified with (SC-02), or the client's default it got (SC-03).
    scope: formatScope(pending.scopes),
  });
  if (pending.state !== undefined) params.set('state', pending.state);
  if (pending.codeChallenge !== undefined) {
    params.set('code_challenge', pending.codeChallenge);
    params.set('code_challenge_method', 'S256');
  }
  if (pending.prompt !== undefined) params.set('prompt', pending.prompt.join(' '));
  // OI-04: the code the other account gets is still bound to the application's nonce.
  if (pending.nonce !== undefined) params.set('nonce', pending.nonce);
  // RS-01: the resource server the request named (none: the Latchkey API, RS-03).
  if (pending.resource !== undefined) params.set('resource', pending.resource.uri);
  return `${AUTHORIZE_PATH}?${params.toString()}`;
}

/**
 * POST /oauth/authorize/switch-account: the consent page's "Not you? Switch account" (CE-10).
 * Signs this browser out as Sign out does (endBrowserSession), then sends it back to the same
 * authorization request, which now asks who is signing in. A form with the request's CSRF
 * token, not a link: a cross-site page cannot sign anyone out through it.
 */
export function switchAccountHandler(deps: AuthDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const pending = findPendingAuthorization(deps, req, body.request);
    if (!pending || req.session.userId === undefined) throw new CsrfRejected();
    assertCsrfToken(body[CSRF_FIELD], pending.csrfToken);
    await endBrowserSession(deps, req, res);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, authorizeUrlOf(pending));
  };
}
