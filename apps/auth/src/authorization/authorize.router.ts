import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Client, User } from '@latchkey/core';
import type { AuthDeps } from '../deps.ts';
import { PageError } from '../http/page-error.ts';
import { methodNotAllowedPage } from '../http/method-not-allowed-page.ts';
import { currentUser } from '../interaction/current-user.ts';
import {
  findPendingAuthorization,
  removePendingAuthorization,
  savePendingAuthorization,
} from './pending-authorization.ts';
import { authorizationErrorRedirect, markRedirectVerified } from './authorization-error-redirect.ts';
import { assembleAuthorizeParams } from './authorize-params.ts';
import { checkClient, checkPendingClient } from './check-client.ts';
import { rejectDuplicates } from './check-duplicates.ts';
import { checkIdTokenHint, checkLoginHint } from './check-hints.ts';
import { checkMaxAge, signInTooOld } from './check-max-age.ts';
import { checkNonce } from './check-nonce.ts';
import { checkPkce } from './check-pkce.ts';
import { checkPrompt } from './check-prompt.ts';
import { checkRedirectUri } from './check-redirect-uri.ts';
import { checkResource, pendingResourceOf } from './check-resource.ts';
import { checkResponseType } from './check-response-type.ts';
import { checkScope } from './check-scope.ts';
import { checkState, echoableState } from './check-state.ts';
import { AuthorizationError, AuthorizationErrorCode } from './authorize.errors.ts';
import { issueCodeAndRedirect } from './issue-code.ts';
import { metadataDocumentRateLimit } from './metadata-document/metadata-document.rate-limit.ts';
import { priorApproval, proceedWithAuthorization } from './proceed-authorization.ts';

export const AUTHORIZE_PATH = '/oauth/authorize';
export const CONTINUE_PATH = '/oauth/authorize/continue';

/**
 * GET /oauth/authorize (the documented interface (docs/integrating.md), RFC 6749 §4.1.1; bad input: the AZ rules
 * in docs/rules.md). The order of the checks is the security property: client, then redirect
 * URI, and only then anything whose failure is reported to that redirect URI.
 */
export function authorizeRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();

  // Express answers HEAD with the GET route; a HEAD must never mint a code (it would carry
  // it in Location for a silently approved user), so it is refused like other methods.
  router.head([AUTHORIZE_PATH, CONTINUE_PATH], (_req, res) => {
    res.status(405).set('Allow', 'GET').end();
  });

  // CM-21: before the session is read, so a refused request costs nothing more.
  router.get(AUTHORIZE_PATH, metadataDocumentRateLimit(deps), session, async (req, res) => {
    const request = assembleAuthorizeParams(req.query as Record<string, unknown>);
    const client = await checkClient(deps, request);
    const redirectUri = checkRedirectUri(client, request);
    const state = echoableState(request);
    markRedirectVerified(res, { redirectUri, state });
    rejectDuplicates(request);
    checkState(request);
    checkResponseType(request);
    const prompt = checkPrompt(request);
    const codeChallenge = checkPkce(client, request);
    // RS-01, RS-02, RS-03: the resource server the tokens are for; RS-08: it bounds their scopes.
    const target = await checkResource(deps, request);
    const scopes = checkScope(client, request, target.server);
    const nonce = checkNonce(request);
    const maxAge = checkMaxAge(request);
    const loginHint = checkLoginHint(request);
    const idTokenHint = await checkIdTokenHint(deps, client, request);
    const user = await currentUser(deps.db, req);
    // AZ-30, OI-15, OI-17: credentials must be entered (again) for this request.
    const loginRequired =
      !user ||
      (!prompt.none && prompt.interactions.includes('login')) ||
      signInTooOld(req.session.authenticatedAt, maxAge, deps.clock.now()) ||
      (idTokenHint !== undefined && idTokenHint.sub !== user.id);
    const request_ = { redirectUri, state, codeChallenge, scopes, nonce, resource: pendingResourceOf(target) };
    if (prompt.none) {
      await authorizeWithoutInteraction(deps, req, res, client, loginRequired ? undefined : user, request_);
      return;
    }
    const pending = savePendingAuthorization(deps, req, res, {
      clientId: client.id,
      ...request_,
      prompt: prompt.interactions,
      loginRequired,
    });
    await proceedWithAuthorization(deps, req, res, pending, client, loginHint);
  });

  // Where the sign-in and sign-up forms send the browser once the user is known (AZ-20).
  router.get(CONTINUE_PATH, session, async (req, res) => {
    const pending = findPendingAuthorization(deps, req, req.query.request);
    if (!pending) {
      throw new PageError(
        400,
        'This sign-in request has expired',
        'Go back to the application and start signing in again.',
      );
    }
    let client;
    try {
      client = await checkPendingClient(deps.db, pending);
    } catch (err) {
      removePendingAuthorization(req, pending.id);
      throw err;
    }
    markRedirectVerified(res, pending);
    await proceedWithAuthorization(deps, req, res, pending, client);
  });

  // AZ-16: only GET is offered (OAuth 2.1 makes POST optional). No CORS preflight answer either (CJ-06, AZ-17).
  router.all(AUTHORIZE_PATH, methodNotAllowedPage('GET', 'The authorization endpoint accepts only GET requests.'));

  router.use(authorizationErrorRedirect(deps));
  return router;
}

/**
 * OI-16: prompt=none (OpenID Connect Core §3.1.2.1) never shows a page: a code when the user is
 * signed in (recently enough, as the hint says: `user` is undefined otherwise) and has approved
 * the request before (or the client is first-party; never for a resource server other than the
 * API: RS-11); else `login_required` or `consent_required`
 * on the redirect. Nothing is kept pending. There is no other interaction, so
 * `interaction_required` is never the answer.
 */
async function authorizeWithoutInteraction(
  deps: AuthDeps,
  req: Request,
  res: Response,
  client: Client,
  user: User | undefined,
  request: Parameters<typeof issueCodeAndRedirect>[3],
): Promise<void> {
  if (!user) throw new AuthorizationError(AuthorizationErrorCode.loginRequired, 'The user must sign in.');
  const { approved } = await priorApproval(deps, client, user.id, request, false);
  if (!approved) {
    throw new AuthorizationError(AuthorizationErrorCode.consentRequired, 'The user must approve this request.');
  }
  await issueCodeAndRedirect(deps, req, res, request, client, user.id);
}
