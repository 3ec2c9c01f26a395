import { MAX_NAME_LENGTH } from '@latchkey/contracts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@latchkey/core';
import { html, type SafeHtml } from '../../../http/html.ts';
import { alertBox, csrfField, hiddenField, textField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';
import { interactionPath, type InteractionContext } from '../../interaction-links.ts';

export interface SignUpView extends InteractionContext {
  csrfToken: string;
  clientName?: string | undefined;
  values?: { name?: string | undefined; email?: string | undefined };
  /**
   * Per-field messages; `form` is shown above the fields. `signInInstead`: the email has an
   * account (HD-16), and its message ends with a link to sign in (AX-08).
   */
  errors?: { name?: string; email?: string; password?: string; form?: string; signInInstead?: boolean };
}

const FIELDS = ['name', 'email', 'password'] as const;

/**
 * The sign-up page: fields Name, Email and Password, button "Create account". AX-08: every
 * wrong field shows its message at once, tied to it by aria-describedby and marked
 * aria-invalid, and the first of them has `autofocus` (no script: the CSP allows none); name
 * and email come back as typed, the password never.
 */
export function signUpPage(view: SignUpView): SafeHtml {
  const errors = view.errors ?? {};
  const invalid = FIELDS.filter((field) => errors[field]);
  const focus = invalid[0] ?? 'name';
  const summary =
    errors.form ??
    (invalid.length === 1
      ? 'Please correct the highlighted field and try again.'
      : invalid.length > 1
        ? 'Please correct the highlighted fields and try again.'
        : undefined);
  const emailError =
    errors.email && errors.signInInstead
      ? html`${errors.email} <a href="${interactionPath('/signin', view)}">Sign in instead</a>.`
      : errors.email;
  return layout({
    title: 'Create account',
    body: html`<h1 id="page-title">Create your account</h1>
      <p class="lead">
        ${view.clientName ? html`to continue to <strong>${view.clientName}</strong>` : 'One account for every application built on Latchkey.'}
      </p>
      ${alertBox(summary)}
      <form method="post" action="/signup" novalidate>
        ${csrfField(view.csrfToken)} ${hiddenField('request', view.requestId)}
        ${view.requestId === undefined ? hiddenField('return_to', view.returnTo) : ''}
        ${textField({ name: 'name', label: 'Name', value: view.values?.name, autocomplete: 'name', maxlength: MAX_NAME_LENGTH, error: errors.name, autofocus: focus === 'name' })}
        ${textField({ name: 'email', label: 'Email', type: 'email', value: view.values?.email, autocomplete: 'email', maxlength: 254, error: emailError, autofocus: focus === 'email' })}
        ${textField({
          name: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'new-password',
          hint: `At least ${PASSWORD_MIN_LENGTH} characters, not a common password and not your name or email. A few unrelated words make a good one.`,
          minlength: PASSWORD_MIN_LENGTH,
          maxlength: PASSWORD_MAX_LENGTH,
          error: errors.password,
          autofocus: focus === 'password',
        })}
        <button class="button button-primary button-block" type="submit">Create account</button>
      </form>
      <p class="switch">Already have an account? <a href="${interactionPath('/signin', view)}">Sign in</a></p>`,
  });
}
