import type { Request, Response } from 'express';
import {
  Conflict,
  createUser,
  findActiveClient,
  findNewUserErrors,
  ValidationFailed,
  type NewUser,
  type User,
} from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { assertFormCsrf, csrfTokenFor } from '../../http/csrf.ts';
import { markSignUpForExistingAccount } from '../../http/rate-limit.ts';
import { allowFormActionTo } from '../../http/security-headers.ts';
import { sendSessionPage } from '../../http/send-page.ts';
import { currentUser } from '../current-user.ts';
import { completeSignIn } from '../complete-sign-in.ts';
import { findPendingAuthorization } from '../../authorization/pending-authorization.ts';
import { signUpForm } from './signup.schema.ts';
import { signUpPage, type SignUpView } from './views/signup.view.ts';
import { sameOriginPath } from '@latchkey/http';
import { clientLabelOf } from '../../authorization/consent/self-registration.ts';

type FieldErrors = NonNullable<SignUpView['errors']>;

async function renderSignUp(
  deps: AuthDeps,
  req: Request,
  res: Response,
  status: number,
  view: { requestId?: unknown; returnTo?: unknown; values?: SignUpView['values']; errors?: FieldErrors },
): Promise<void> {
  const pending = findPendingAuthorization(deps, req, view.requestId);
  const client = pending ? await findActiveClient(deps.db, pending.clientId) : undefined;
  if (pending) allowFormActionTo(res, pending.redirectUri);
  await sendSessionPage(
    req,
    res,
    status,
    signUpPage({
      csrfToken: csrfTokenFor(deps, req, res),
      requestId: pending?.id,
      returnTo: pending ? undefined : sameOriginPath(view.returnTo, deps.config.auth.url),
      clientName: client && clientLabelOf(client),
      ...(view.values && { values: view.values }),
      ...(view.errors && { errors: view.errors }),
    }),
  );
}

/**
 * HD-16: a sign-up for an email that has an account says so. Answering as for a new address
 * cannot be done honestly here: a new sign-up signs the browser in at once, which cannot be
 * faked for an account someone else owns, and Latchkey sends no email through which either
 * answer could arrive instead. So the answer stays (the owner who forgot learns to sign in),
 * and what it costs is capped: such sign-ups are limited per address, 5 an hour
 * (signUpRateLimit), on top of the per-minute limit on every sign-up.
 */
const EXISTING_ACCOUNT: FieldErrors = { email: 'An account with this email already exists.', signInInstead: true };

/**
 * Domain errors become messages next to the field they name. AX-08: a refused field means
 * the others are judged too (findNewUserErrors), so every wrong field is marked at once.
 */
async function fieldErrorsFor(err: unknown, input: NewUser): Promise<FieldErrors | undefined> {
  if (err instanceof Conflict) return EXISTING_ACCOUNT;
  if (!(err instanceof ValidationFailed)) return undefined;
  const errors: FieldErrors = {};
  for (const refusal of await findNewUserErrors(input)) {
    const field =
      refusal.field === 'name' || refusal.field === 'email' || refusal.field === 'password' ? refusal.field : 'form';
    errors[field] ??= refusal.description;
  }
  return Object.keys(errors).length > 0 ? errors : { form: err.description };
}

export function signUpHandlers(deps: AuthDeps) {
  return {
    async show(req: Request, res: Response): Promise<void> {
      const returnTo = sameOriginPath(req.query.return_to, deps.config.auth.url);
      if (req.query.request === undefined && (await currentUser(deps.db, req))) {
        res.redirect(303, returnTo ?? '/');
        return;
      }
      await renderSignUp(deps, req, res, 200, { requestId: req.query.request, returnTo });
    },

    async submit(req: Request, res: Response): Promise<void> {
      assertFormCsrf(deps, req);
      const form = signUpForm.safeParse(req.body);
      if (!form.success) {
        await renderSignUp(deps, req, res, 422, { errors: { form: 'Fill in your name, email and password.' } });
        return;
      }
      const { name, email, password, request, return_to: returnTo } = form.data;
      let errors: FieldErrors | undefined;
      const input = { name, email, password };
      const user: User | undefined = await createUser(deps.db, deps.clock, input).catch(async (err: unknown) => {
        if (err instanceof Conflict) markSignUpForExistingAccount(res);
        errors = await fieldErrorsFor(err, input);
        if (errors) return undefined;
        throw err;
      });
      if (!user) {
        await renderSignUp(deps, req, res, 422, {
          requestId: request,
          returnTo,
          values: { name, email },
          ...(errors && { errors }),
        });
        return;
      }
      await completeSignIn(deps, req, res, user, form.data);
    },
  };
}
