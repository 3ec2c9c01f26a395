import { Router, type Request, type RequestHandler, type Response } from 'express';
import { findActiveClient } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { csrfTokenFor } from '../../http/csrf.ts';
import { formBody } from '../../http/form-body.ts';
import { PageError } from '../../http/page-error.ts';
import { sendPage, sendSessionPage } from '../../http/send-page.ts';
import { errorPage } from '../../http/views/error-page.view.ts';
import { currentUser } from '../../interaction/current-user.ts';
import { endBrowserSession } from '../../interaction/end-session.ts';
import { authorizationResponseUrl } from '../../authorization/authorization-response.ts';
import { isEchoableState, MAX_STATE_LENGTH } from '../../authorization/check-state.ts';
import { assembleLogoutParams } from './logout-params.ts';
import { confirmSignOutPage, signedOutPage } from './views/logout.view.ts';

export const END_SESSION_PATH = '/oauth/logout';

/**
 * The request cannot be trusted to name where to go (SO-02): a 400 page on this server, never
 * a redirect, and the session is left as it was. Input is never echoed.
 */
class InvalidLogoutRequest extends PageError {
  constructor(detail: string) {
    super(400, 'This sign-out link is not valid', detail, {
      advice:
        'Latchkey could not send you back to the application safely, so it stopped here. You are still signed in; to sign out, use Sign out on the Latchkey home page.',
    });
    this.name = 'InvalidLogoutRequest';
  }
}

/**
 * GET and POST /oauth/logout: the end-session endpoint, in the shape of OpenID RP-Initiated
 * Logout 1.0 (§2, §3). The rules (docs/sign-out.md):
 * - SO-01 a `client_id` of an active client and a `post_logout_redirect_uri` byte-for-byte
 *   equal to the one it registered: the browser's session ends at once, then 303 to that URL
 *   with `state` if sent. A cross-site link can do this much (the spec allows it); it can
 *   only sign the user out, and send them to the client's own page.
 * - SO-02 a `post_logout_redirect_uri` without a client, or not the registered one; an unknown
 *   or revoked client; a repeated parameter; a malformed state: a 400 page, no redirect, and
 *   nobody is signed out.
 * - SO-03 no `post_logout_redirect_uri`: nothing happens until the user confirms on this
 *   server's page (a form with the session's CSRF token to POST /signout); with nobody
 *   signed in, a page that says so. Never a redirect.
 */
export function logoutRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();

  async function endSession(source: unknown, req: Request, res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const { params, duplicates } = assembleLogoutParams(source);
    if (duplicates.size > 0) {
      throw new InvalidLogoutRequest(
        `These parameters must not be provided more than once: ${[...duplicates].join(', ')}.`,
      );
    }
    const client = params.client_id === undefined ? undefined : await findActiveClient(deps.db, params.client_id);
    if (params.client_id !== undefined && !client) {
      throw new InvalidLogoutRequest('The application (client_id) is unknown or no longer active.');
    }
    const returnTo = params.post_logout_redirect_uri;
    if (returnTo !== undefined) {
      if (!client) throw new InvalidLogoutRequest('A post_logout_redirect_uri needs the client_id of its application.');
      // Exact comparison, as for redirect_uri (RU-01): no normalisation of case, slash or query.
      if (client.postLogoutRedirectUri === null || returnTo !== client.postLogoutRedirectUri) {
        throw new InvalidLogoutRequest('The post_logout_redirect_uri is not the one registered for this application.');
      }
      const state = params.state;
      // The authorization endpoint's rule for state (ST-01..ST-05).
      if (state !== undefined && !isEchoableState(state)) {
        throw new InvalidLogoutRequest(`state must be at most ${MAX_STATE_LENGTH} printable ASCII characters.`);
      }
      await endBrowserSession(deps, req, res);
      res.status(303).location(authorizationResponseUrl(returnTo, { state })).end();
      return;
    }
    const user = await currentUser(deps.db, req);
    if (!user) {
      sendPage(res, 200, signedOutPage());
      return;
    }
    await sendSessionPage(req, res, 200, confirmSignOutPage({ user, csrfToken: csrfTokenFor(deps, req, res), clientName: client?.name }));
  }

  // Express answers HEAD with the GET route: a HEAD (a link preview, a prefetch) must never
  // sign anyone out.
  router.head(END_SESSION_PATH, (_req, res) => {
    res.status(405).set('Allow', 'GET, POST').end();
  });
  router.get(END_SESSION_PATH, session, (req, res) => endSession(req.query, req, res));
  router.post(END_SESSION_PATH, formBody, session, (req, res) => endSession(req.body, req, res));
  router.all(END_SESSION_PATH, (_req, res) => {
    res.setHeader('Allow', 'GET, POST');
    sendPage(
      res,
      405,
      errorPage({
        title: 'Method not allowed',
        detail: 'The end-session endpoint accepts only GET and POST requests.',
        badge: 'Error 405',
      }),
    );
  });
  return router;
}
