import { Router, type Request, type RequestHandler, type Response } from 'express';
import { findActiveClient } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { assertFormCsrf, CSRF_FIELD, csrfTokenFor } from '../../http/csrf.ts';
import { formBody } from '../../http/form-body.ts';
import { methodNotAllowedPage } from '../../http/method-not-allowed-page.ts';
import { PageError } from '../../http/page-error.ts';
import { allowFormActionTo } from '../../http/security-headers.ts';
import { sendPage, sendSessionPage } from '../../http/send-page.ts';
import { currentUser } from '../../interaction/current-user.ts';
import { endBrowserSession } from '../../interaction/end-session.ts';
import { authorizationResponseUrl } from '../../authorization/authorization-response.ts';
import { isEchoableState, MAX_STATE_LENGTH } from '../../authorization/check-state.ts';
import { assembleLogoutParams } from './logout-params.ts';
import { confirmReturnToClientPage, confirmSignOutPage, signedOutPage } from './views/logout.view.ts';

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
 * - SO-01 the portal's own `client_id` (first-party) and a `post_logout_redirect_uri`
 *   byte-for-byte equal to the one it registered: the browser's session ends at once, then 303
 *   to that URL with `state` if sent. A cross-site link can do this much (the spec allows it);
 *   it can only sign the user out, and send them to the portal's signed-out page.
 * - HD-08 a third-party client and its exact registered URL: sign-up is open, so anyone can
 *   register a client whose URL is their own site, and a silent redirect made this endpoint an
 *   open redirect. RP-Initiated Logout §2 asks the provider to confirm with the user when no
 *   `id_token_hint` proves who asks (no ID tokens are issued yet): a page on this server names
 *   the client and where it goes; only its button, a POST with the page's CSRF token, signs out
 *   and goes back. A POST without that token (an RP's form, or a forged one) is answered with
 *   the same page, reached by a 303 to GET so that the browser's Lax cookies come with it.
 * - SO-02 a `post_logout_redirect_uri` without a client, or not the registered one; an unknown
 *   or revoked client; a repeated parameter; a malformed state: a 400 page, no redirect, and
 *   nobody is signed out.
 * - SO-03 no `post_logout_redirect_uri`: nothing happens until the user confirms on this
 *   server's page (a form with the session's CSRF token to POST /signout); with nobody
 *   signed in, a page that says so. Never a redirect.
 */
export function logoutRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();

  /** `confirmed`: a POST that carried the confirmation page's CSRF token, already checked. */
  async function endSession(source: unknown, req: Request, res: Response, confirmed: boolean): Promise<void> {
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
      if (!client.firstParty && !confirmed) {
        // HD-08: a third-party client's return needs the user's own click on this server.
        if (req.method === 'POST') {
          res.redirect(303, `${END_SESSION_PATH}?${new URLSearchParams(definedParams({ ...params })).toString()}`);
          return;
        }
        const user = await currentUser(deps.db, req);
        // The button's answer is a 303 to the registered URL: its origin joins form-action (CJ-04).
        allowFormActionTo(res, returnTo);
        await sendSessionPage(
          req,
          res,
          200,
          confirmReturnToClientPage({
            user,
            csrfToken: csrfTokenFor(deps, req, res),
            clientName: client.name,
            returnHost: new URL(returnTo).host,
            action: END_SESSION_PATH,
            fields: definedParams({ client_id: client.id, post_logout_redirect_uri: returnTo, state }),
          }),
        );
        return;
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
    await sendSessionPage(
      req,
      res,
      200,
      confirmSignOutPage({ user, csrfToken: csrfTokenFor(deps, req, res), clientName: client?.name }),
    );
  }

  /** A POST carrying the confirmation page's token: checked first (403, nobody signed out if wrong). */
  function confirmedPost(req: Request): boolean {
    if ((req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] === undefined) return false;
    assertFormCsrf(deps, req);
    return true;
  }

  // Express answers HEAD with the GET route: a HEAD (a link preview, a prefetch) must never
  // sign anyone out (SO-04, as any method but GET and POST).
  router.head(END_SESSION_PATH, (_req, res) => {
    res.status(405).set('Allow', 'GET, POST').end();
  });
  router.get(END_SESSION_PATH, session, (req, res) => endSession(req.query, req, res, false));
  router.post(END_SESSION_PATH, formBody, session, (req, res) => endSession(req.body, req, res, confirmedPost(req)));
  router.all(
    END_SESSION_PATH,
    methodNotAllowedPage('GET, POST', 'The end-session endpoint accepts only GET and POST requests.'),
  );
  return router;
}

function definedParams(params: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
