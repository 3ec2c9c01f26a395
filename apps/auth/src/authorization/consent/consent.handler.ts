import type { Request, Response } from 'express';
import { recordConsent } from '@latchkey/core';
import { checkPendingClient } from '../check-client.ts';
import type { AuthDeps } from '../../deps.ts';
import { assertCsrfToken, CSRF_FIELD } from '../../http/csrf.ts';
import { CsrfRejected, PageError } from '../../http/page-error.ts';
import { markRedirectVerified } from '../authorization-error-redirect.ts';
import { redirectWithError } from '../authorization-response.ts';
import { issueCodeAndRedirect } from '../issue-code.ts';
import { AuthorizationErrorCode } from '../authorize.errors.ts';
import { currentUser } from '../../interaction/current-user.ts';
import { findPendingAuthorization, removePendingAuthorization } from '../pending-authorization.ts';
import { decisionForm } from './consent.schema.ts';
import { originOf } from '../../http/request-origin.ts';

/**
 * POST /oauth/authorize/decision. The request must be pending in this session and the CSRF
 * token must be the one minted for that request (CS-01): a token from another session or for
 * another request is 403 and no code exists. A decision is taken once.
 */
export function consentHandler(deps: AuthDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const pending = findPendingAuthorization(deps, req, body.request);
    if (!pending) throw new CsrfRejected();
    assertCsrfToken(body[CSRF_FIELD], pending.csrfToken);
    const user = await currentUser(deps.db, req);
    if (!user || pending.loginRequired) throw new CsrfRejected();
    const form = decisionForm.safeParse(body);
    if (!form.success)
      throw new PageError(400, 'Choose Allow or Deny', 'The form did not say whether you allow or deny access.');

    removePendingAuthorization(req, pending.id);
    const client = await checkPendingClient(deps.db, pending);
    markRedirectVerified(res, pending);

    if (form.data.decision === 'deny') {
      // OR-05, AZ-21: access_denied with state, to the registered URI only, which belongs to a verified client.
      redirectWithError(
        res,
        deps.config.auth.url,
        pending,
        AuthorizationErrorCode.accessDenied,
        'The user denied the request.',
      );
      return;
    }
    // SC-05: remembered per scope, added to what this user approved for this client before. RS-11:
    // an approval for another resource server is not one for the Latchkey API, and is never remembered.
    // AU-13: the remembered approval is application.authorized in the user's log, from this request.
    if (pending.resource === undefined) {
      await recordConsent(deps.db, deps.clock, user.id, client.id, pending.scopes, {
        kind: 'user',
        userId: user.id,
        origin: originOf(req),
      });
    }
    await issueCodeAndRedirect(deps, req, res, pending, client, user.id);
  };
}
