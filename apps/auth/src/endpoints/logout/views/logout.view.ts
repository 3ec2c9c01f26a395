import type { User } from '@latchkey/core';
import { html, type SafeHtml } from '../../../http/html.ts';
import { csrfField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';

/**
 * Asked when a sign-out request may not end the session by itself (no registered return URL):
 * another site can link here, but only the user's own click on this page signs them out.
 */
export function confirmSignOutPage(view: { user: User; csrfToken: string; clientName?: string | undefined }): SafeHtml {
  return layout({
    title: 'Sign out',
    body: html`<h1 id="page-title">Sign out of Latchkey?</h1>
      <p class="lead">
        ${view.clientName ? html`<strong>${view.clientName}</strong> asks to sign you out. ` : ''}You are signed in
        as <strong>${view.user.name}</strong> (${view.user.email}). Signing out ends your session in this browser:
        every application will ask for your password again.
      </p>
      <form method="post" action="/signout">
        ${csrfField(view.csrfToken)}
        <div class="actions">
          <a class="button button-secondary" href="/">Stay signed in</a>
          <button class="button button-primary" type="submit">Sign out</button>
        </div>
      </form>`,
  });
}

/** Nobody is signed in at this browser: nothing to confirm, and nowhere to send it. */
export function signedOutPage(): SafeHtml {
  return layout({
    title: 'Signed out',
    body: html`<h1 id="page-title">You are signed out</h1>
      <p class="lead">Nobody is signed in to Latchkey in this browser.</p>
      <div class="actions"><a class="button button-primary" href="/signin">Sign in</a></div>`,
  });
}
