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
  /** Per-field messages; `form` is shown above the fields. */
  errors?: { name?: string; email?: string; password?: string; form?: string };
}

/** The sign-up page: fields Name, Email and Password, button "Create account". */
export function signUpPage(view: SignUpView): SafeHtml {
  const errors = view.errors ?? {};
  const fieldErrors = [errors.name, errors.email, errors.password].filter(Boolean).length;
  const summary = errors.form ?? (fieldErrors > 0 ? 'Please correct the highlighted field and try again.' : undefined);
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
        ${textField({ name: 'name', label: 'Name', value: view.values?.name, autocomplete: 'name', maxlength: MAX_NAME_LENGTH, error: errors.name, autofocus: true })}
        ${textField({ name: 'email', label: 'Email', type: 'email', value: view.values?.email, autocomplete: 'email', maxlength: 254, error: errors.email })}
        ${textField({
          name: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'new-password',
          hint: `At least ${PASSWORD_MIN_LENGTH} characters, not a common password and not your name or email. A few unrelated words make a good one.`,
          minlength: PASSWORD_MIN_LENGTH,
          maxlength: PASSWORD_MAX_LENGTH,
          error: errors.password,
        })}
        <button class="button button-primary button-block" type="submit">Create account</button>
      </form>
      <p class="switch">Already have an account? <a href="${interactionPath('/signin', view)}">Sign in</a></p>`,
  });
}
