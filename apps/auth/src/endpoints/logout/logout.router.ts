import { Router, type Request, type RequestHandler, type Response } from 'express';
import { findActiveClient } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { assertFormCsrf, CSRF_FIELD, csrfTokenFor } from '../../http/csrf.ts';
import { formBody } from '../../http/form-body.ts';
import { methodNotAllowedPage } from '../../http/method-not-allowed-page.ts';
import { allowFormActionTo } from '../../http/security-headers.ts';
import { sendPage, sendSessionPage } from '../../http/send-page.ts';
import { currentUser } from '../../interaction/current-user.ts';
import { endBrowserSession } from '../../interaction/end-session.ts';
import { authorizationResponseUrl } from '../../authorization/authorization-response.ts';
import { isEchoableState, MAX_STATE_LENGTH } from '../../authorization/check-state.ts';
import { checkIdTokenHint } from './check-id-token-hint.ts';
import { InvalidLogoutRequest } from './invalid-logout-request.ts';
import { assembleLogoutParams } from './logout-params.ts';
import { confirmReturnToClientPage, confirmSignOutPage, signedOutPage } from './views/logout.view.ts';
import { clientLabelOf } from '../../authorization/consent/self-registration.ts';

export const END_SESSION_PATH = '/oauth/logout';

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
 *   `id_token_hint` proves who asks: a page on this server names the client and where it goes;
 *   only its button, a POST with the page's CSRF token, signs out and goes back. A POST without
 *   that token (an RP's form, or a forged one) is answered with the same page, reached by a 303
 *   to GET so that the browser's Lax cookies come with it (and the hint, below, is read there).
 * - OI-18 `id_token_hint`: not an ID token of this server (signature, kid, issuer, shape), or
 *   a `client_id` other than its `aud`, is a 400 page (as SO-02); without `client_id` its `aud`
 *   names the client. A valid hint (expired too) about the signed-in user, or with nobody signed
 *   in, proves who asks: with the registered URL, signed out and 303 at once, no page, for a
 *   third-party client too. A hint about another user always gets the confirmation page, for
 *   the portal's client too: never a silent sign-out of someone else.
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
    const { hint, clientId } = await checkIdTokenHint(deps, params);
    const client = clientId === undefined ? undefined : await findActiveClient(deps.db, clientId);
    if (clientId !== undefined && !client) {
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
      if (!confirmed && !client.firstParty && req.method === 'POST') {
        // HD-08: a cross-site POST carries no Lax cookie; the GET on this server does (and
        // only there can a hint be compared with the signed-in user).
        res.redirect(303, `${END_SESSION_PATH}?${new URLSearchParams(definedParams({ ...params })).toString()}`);
        return;
      }
      const user = confirmed || (client.firstParty && !hint) ? undefined : await currentUser(deps.db, req);
      const proven = hint !== undefined && (user === undefined || user.id === hint.sub);
      // HD-08: a third-party client's return needs the user's own click on this server, unless
      // a hint proves who asks (OI-18); a hint about someone else always does, for any client.
      if (!confirmed && (hint ? !proven : !client.firstParty)) {
        // The button's answer is a 303 to the registered URL: its origin joins form-action (CJ-04).
        allowFormActionTo(res, returnTo);
        await sendSessionPage(
          req,
          res,
          200,
          confirmReturnToClientPage({
            user,
            csrfToken: csrfTokenFor(deps, req, res),
            clientName: clientLabelOf(client),
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
      confirmSignOutPage({
        user,
        csrfToken: csrfTokenFor(deps, req, res),
        clientName: client && clientLabelOf(client),
      }),
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
