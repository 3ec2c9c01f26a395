import type { Request, Response } from 'express';
import { authenticateUser, findActiveClient, InvalidCredentials, type User } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { assertFormCsrf, csrfTokenFor } from '../../http/csrf.ts';
import { allowFormActionTo } from '../../http/security-headers.ts';
import { sendSessionPage } from '../../http/send-page.ts';
import { currentUser } from '../current-user.ts';
import { endBrowserSession } from '../end-session.ts';
import { completeSignIn } from '../complete-sign-in.ts';
import { findPendingAuthorization, type PendingAuthorization } from '../../authorization/pending-authorization.ts';
import { signInCounters } from './signin-metrics.ts';
import { signInForm } from './signin.schema.ts';
import { signInPage, type SignInView } from './views/signin.view.ts';
import { sameOriginPath } from '@latchkey/http';
import { clientLabelOf } from '../../authorization/consent/self-registration.ts';
import { originOf } from '../../http/request-origin.ts';

/** One message for unknown email and wrong password: no account enumeration. */
const SIGN_IN_FAILED = 'Incorrect email or password.';

/** The application a pending request is for; its redirect origin joins form-action (CJ-04). */
async function pendingContext(deps: AuthDeps, res: Response, pending: PendingAuthorization | undefined) {
  if (!pending) return {};
  const client = await findActiveClient(deps.db, pending.clientId);
  if (!client) return { requestId: pending.id };
  allowFormActionTo(res, pending.redirectUri);
  return { requestId: pending.id, clientName: clientLabelOf(client) };
}

async function renderSignIn(deps: AuthDeps, req: Request, res: Response, status: number, view: Partial<SignInView>) {
  const pending = findPendingAuthorization(deps, req, view.requestId);
  const context = await pendingContext(deps, res, pending);
  const returnTo = pending ? undefined : sameOriginPath(view.returnTo, deps.config.auth.url);
  await sendSessionPage(
    req,
    res,
    status,
    signInPage({
      ...view,
      requestId: undefined,
      returnTo,
      ...context,
      // prompt=login over a live session keeps saying why the password is asked again.
      reauthenticate: pending !== undefined && req.session.userId !== undefined,
      csrfToken: csrfTokenFor(deps, req, res),
    }),
  );
}

export function signInHandlers(deps: AuthDeps) {
  const counted = signInCounters(deps.observability!.metrics);

  async function submit(req: Request, res: Response): Promise<void> {
    assertFormCsrf(deps, req);
    const form = signInForm.safeParse(req.body);
    if (!form.success) {
      counted.invalid_request.inc();
      await renderSignIn(deps, req, res, 422, { error: SIGN_IN_FAILED });
      return;
    }
    const { email, password, request, return_to: returnTo } = form.data;
    // AU-10: a wrong password for an existing account is sign_in_failed in its log, from this request.
    const attempt = { clock: deps.clock, origin: originOf(req) };
    const user: User | undefined = await authenticateUser(deps.db, email, password, attempt).catch((err: unknown) => {
      if (err instanceof InvalidCredentials) return undefined;
      throw err;
    });
    if (!user) {
      counted.invalid_credentials.inc();
      await renderSignIn(deps, req, res, 422, { error: SIGN_IN_FAILED, email, requestId: request, returnTo });
      return;
    }
    await completeSignIn(deps, req, res, user, form.data);
    counted.ok.inc();
  }

  return {
    async show(req: Request, res: Response): Promise<void> {
      const requestId = typeof req.query.request === 'string' ? req.query.request : undefined;
      const returnTo = sameOriginPath(req.query.return_to, deps.config.auth.url);
      if (requestId === undefined && (await currentUser(deps.db, req))) {
        res.redirect(303, returnTo ?? '/');
        return;
      }
      await renderSignIn(deps, req, res, 200, { requestId, returnTo });
    },

    /** OB-04: every submission is counted by outcome (signin-metrics.ts). */
    async submit(req: Request, res: Response): Promise<void> {
      try {
        await submit(req, res);
      } catch (err) {
        counted.failed(err);
        throw err;
      }
    },

    async signOut(req: Request, res: Response): Promise<void> {
      assertFormCsrf(deps, req);
      await endBrowserSession(deps, req, res);
      res.redirect(303, '/signin');
    },
  };
}
