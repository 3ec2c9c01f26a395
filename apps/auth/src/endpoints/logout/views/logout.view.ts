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
        ${view.clientName ? html`<strong>${view.clientName}</strong> asks to sign you out. ` : ''}You are signed in as
        <strong>${view.user.name}</strong> (${view.user.email}). Signing out ends your session in this browser: every
        application will ask for your password again.
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

/**
 * HD-08: a third-party application asks to sign the user out and send them back to its
 * registered URL. Nothing happens until the button is pressed (a POST with this page's CSRF
 * token), so a link or a cross-site form cannot use this server as a redirect. The page names the
 * application and the host it goes to; with nobody signed in it only offers to continue there.
 */
export function confirmReturnToClientPage(view: {
  user: User | undefined;
  csrfToken: string;
  clientName: string;
  returnHost: string;
  /** The end-session endpoint's path, and the request's parameters to post back to it. */
  action: string;
  fields: Record<string, string>;
}): SafeHtml {
  const hidden = Object.entries(view.fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  const form = (label: string) =>
    html`<form method="post" action="${view.action}">
      ${csrfField(view.csrfToken)} ${hidden}
      <div class="actions">
        ${view.user ? html`<a class="button button-secondary" href="/">Stay signed in</a>` : ''}
        <button class="button button-primary" type="submit">${label}</button>
      </div>
    </form>`;
  if (!view.user) {
    return layout({
      title: 'Signed out',
      body: html`<h1 id="page-title">You are signed out</h1>
        <p class="lead">
          Nobody is signed in to Latchkey in this browser. <strong>${view.clientName}</strong> asks to send you to
          <strong>${view.returnHost}</strong>.
        </p>
        ${form(`Continue to ${view.returnHost}`)}`,
    });
  }
  return layout({
    title: 'Sign out',
    body: html`<h1 id="page-title">Sign out of Latchkey?</h1>
      <p class="lead">
        <strong>${view.clientName}</strong> asks to sign you out. You are signed in as
        <strong>${view.user.name}</strong> (${view.user.email}). Signing out ends your session in this browser: every
        application will ask for your password again. Afterwards you go to <strong>${view.returnHost}</strong>.
      </p>
      ${form('Sign out')}`,
  });
}
