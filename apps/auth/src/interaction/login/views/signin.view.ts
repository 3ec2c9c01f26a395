import { html, type SafeHtml } from '../../../http/html.ts';
import { alertBox, csrfField, hiddenField, textField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';
import { interactionPath, type InteractionContext } from '../../interaction-links.ts';

export interface SignInView extends InteractionContext {
  csrfToken: string;
  /** The application the user is signing in to, when an authorization request is pending. */
  clientName?: string | undefined;
  email?: string | undefined;
  error?: string | undefined;
  /** prompt=login with a live session: the user is asked to confirm their credentials. */
  reauthenticate?: boolean;
}

/** The sign-in page: fields Email and Password, button "Sign in", link "Create account". */
export function signInPage(view: SignInView): SafeHtml {
  const heading = view.reauthenticate ? 'Confirm it’s you' : 'Sign in';
  const lead = view.clientName
    ? html`to continue to <strong>${view.clientName}</strong>`
    : html`to your Latchkey account`;
  return layout({
    title: heading,
    body: html`<h1 id="page-title">${heading}</h1>
      <p class="lead">${view.reauthenticate ? html`Enter your password again ` : ''}${lead}</p>
      ${alertBox(view.error)}
      <form method="post" action="/signin" novalidate>
        ${csrfField(view.csrfToken)} ${hiddenField('request', view.requestId)}
        ${view.requestId === undefined ? hiddenField('return_to', view.returnTo) : ''}
        ${textField({ name: 'email', label: 'Email', type: 'email', value: view.email, autocomplete: 'username', maxlength: 254, autofocus: !view.email })}
        ${textField({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', maxlength: 1024, autofocus: Boolean(view.email) })}
        <button class="button button-primary button-block" type="submit">Sign in</button>
      </form>
      <p class="switch">New to Latchkey? <a href="${interactionPath('/signup', view)}">Create account</a></p>`,
  });
}
