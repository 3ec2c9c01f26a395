import type { User } from '@latchkey/core';
import { html, type SafeHtml } from '../../../http/html.ts';
import { csrfField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';

export function homePage(view: { user: User | undefined; csrfToken?: string | undefined }): SafeHtml {
  if (!view.user) {
    return layout({
      title: 'Welcome',
      body: html`<h1 id="page-title">Welcome to Latchkey</h1>
        <p class="lead">Sign in to approve applications and manage access to your account.</p>
        <div class="actions">
          <a class="button button-secondary" href="/signup">Create account</a>
          <a class="button button-primary" href="/signin">Sign in</a>
        </div>`,
    });
  }
  return layout({
    title: 'Your account',
    body: html`<h1 id="page-title">You’re signed in</h1>
      <div class="account">
        <div>
          <span class="account-label">Signed in as</span><strong class="account-name">${view.user.name}</strong
          ><span class="account-email">${view.user.email}</span>
        </div>
      </div>
      <form method="post" action="/signout">
        ${csrfField(view.csrfToken ?? '')}
        <div class="actions"><button class="button button-secondary" type="submit">Sign out</button></div>
      </form>`,
  });
}
