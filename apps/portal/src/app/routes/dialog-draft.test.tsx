import { cleanup, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { resetSignInRedirect } from '../../lib/api-client.ts';
import { db, makeClient, makeSecret, makeToken } from '../../testing/mocks/db.ts';
import { server } from '../../testing/mocks/server.ts';
import { expectSignInRedirect, renderApp, screen } from '../../testing/test-utils.tsx';

// AX-11: a session that ends while a form dialog is open keeps what was typed, through the sign-in.

const NOTICE_TITLE = 'Your session ended, so nothing was created.';
const NOTICE_BODY = 'Your entries are restored; submit again.';

/** The session ends: the BFF answers this one request 401, as it does once its session is gone. */
function endSessionOn(path: string, method: 'post' | 'patch' = 'post'): void {
  server.use(
    http[method](
      path,
      () => HttpResponse.json({ error: 'unauthenticated', error_description: 'Sign in to continue.' }, { status: 401 }),
      { once: true },
    ),
  );
}

/** The sign-in round trip: this page is gone, and the portal loads again at `path`. */
function comeBackFromSignIn(path: string): ReturnType<typeof renderApp> {
  cleanup();
  resetSignInRedirect();
  return renderApp(path);
}

describe('AX-11 a form dialog outlives the end of the session', () => {
  it('AX-11 a 401 on Generate token saves the fields, never a secret; after sign-in the dialog is back, filled, with the notice; the draft is then gone', async () => {
    endSessionOn('/bff/api/tokens');
    const first = renderApp('/tokens?sort=name');
    await screen.findByText('No API tokens yet');
    await first.user.click(screen.getByRole('button', { name: 'Generate token' }));
    const form = screen.getByRole('dialog', { name: 'Generate token' });
    await first.user.type(within(form).getByLabelText('Token name'), 'Deploy bot');
    await first.user.type(within(form).getByLabelText('Description (optional)'), 'Used by CI');
    await first.user.selectOptions(within(form).getByLabelText('Expiration'), '30 days');
    await first.user.click(within(form).getByRole('checkbox', { name: /email/ }));
    await first.user.click(within(form).getByRole('button', { name: 'Generate token' }));
    await expectSignInRedirect('/tokens?sort=name');

    // One key, with the page and the dialog; only what was typed or chosen.
    expect(window.sessionStorage.length).toBe(1);
    const saved = window.sessionStorage.getItem('latchkey.dialog-draft')!;
    expect(JSON.parse(saved)).toEqual({
      path: '/tokens',
      owner: 'usr_ada',
      dialog: 'create-token',
      fields: { name: 'Deploy bot', description: 'Used by CI', expiration: '30', expiresAt: '', scopes: ['profile'] },
    });
    expect(saved).not.toMatch(/lkp_|password|secret/i);

    const { user } = comeBackFromSignIn('/tokens?sort=name');
    const back = await screen.findByRole('dialog', { name: 'Generate token' });
    expect(back.textContent).toContain(NOTICE_TITLE);
    expect(back.textContent).toContain(NOTICE_BODY);
    // Read as the dialog opens: the notice describes it.
    const notice = document.getElementById(back.getAttribute('aria-describedby')!)!;
    expect(notice.textContent).toBe(`${NOTICE_TITLE}${NOTICE_BODY}`);
    expect(within(back).getByLabelText<HTMLInputElement>('Token name').value).toBe('Deploy bot');
    expect(within(back).getByLabelText<HTMLTextAreaElement>('Description (optional)').value).toBe('Used by CI');
    expect(within(back).getByLabelText<HTMLSelectElement>('Expiration').value).toBe('30');
    expect(within(back).getByRole<HTMLInputElement>('checkbox', { name: /profile/ }).checked).toBe(true);
    expect(within(back).getByRole<HTMLInputElement>('checkbox', { name: /email/ }).checked).toBe(false);
    expect(document.activeElement).toBe(within(back).getByLabelText('Token name'));
    expect(window.sessionStorage.getItem('latchkey.dialog-draft')).toBeNull();

    // Submitting again creates the token with what was restored.
    await user.click(within(back).getByRole('button', { name: 'Generate token' }));
    await screen.findByRole('dialog', { name: 'Token generated' });
    const create = db.requests.find((r) => r.method === 'POST' && r.path === '/bff/api/tokens')!;
    expect(create.body).toEqual({
      name: 'Deploy bot',
      description: 'Used by CI',
      expires_in_days: 30,
      scopes: ['profile'],
    });
    expect(window.sessionStorage.length).toBe(0);
  });

  it('AX-11 a 401 on New client: after sign-in New client is back with its name and URLs', async () => {
    endSessionOn('/bff/api/clients');
    const first = renderApp('/clients');
    await screen.findByText('No API clients yet');
    await first.user.click(screen.getByRole('button', { name: 'New client' }));
    const form = screen.getByRole('dialog', { name: 'New client' });
    await first.user.type(within(form).getByLabelText('Client name'), 'My App');
    await first.user.type(within(form).getByLabelText('Redirect URL'), 'https://app.example.com/callback');
    await first.user.click(within(form).getByLabelText(/device flow/));
    await first.user.click(within(form).getByRole('button', { name: 'Create client' }));
    await expectSignInRedirect('/clients');

    const { user } = comeBackFromSignIn('/clients');
    const back = await screen.findByRole('dialog', { name: 'New client' });
    expect(back.textContent).toContain(NOTICE_TITLE);
    expect(within(back).getByLabelText<HTMLInputElement>('Client name').value).toBe('My App');
    expect(within(back).getByLabelText<HTMLInputElement>('Redirect URL').value).toBe(
      'https://app.example.com/callback',
    );
    expect(within(back).getByLabelText<HTMLInputElement>(/device flow/).checked).toBe(true);
    expect(within(back).getByLabelText<HTMLInputElement>('Public client (no secret)').checked).toBe(false);
    expect(window.sessionStorage.length).toBe(0);
    // Opened by no control, it hands focus to the page's heading when closed, never to <body>.
    await user.click(within(back).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'API clients' }));
  });

  it('AX-11 a draft is for its own page and dialog: another page opens nothing, and a dialog opened later is empty', async () => {
    window.sessionStorage.setItem(
      'latchkey.dialog-draft',
      JSON.stringify({ path: '/tokens', owner: 'usr_ada', dialog: 'create-token', fields: { name: 'Deploy bot' } }),
    );
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'New client' }));
    const form = screen.getByRole('dialog', { name: 'New client' });
    expect(form.textContent).not.toContain(NOTICE_TITLE);
    expect(within(form).getByLabelText<HTMLInputElement>('Client name').value).toBe('');
  });

  it('AX-11 another person who signs in at that tab is not shown the draft: no dialog, and the draft is deleted', async () => {
    endSessionOn('/bff/api/tokens');
    const first = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await first.user.click(screen.getByRole('button', { name: 'Generate token' }));
    const form = screen.getByRole('dialog', { name: 'Generate token' });
    await first.user.type(within(form).getByLabelText('Token name'), 'Ada’s private project');
    await first.user.click(within(form).getByRole('button', { name: 'Generate token' }));
    await expectSignInRedirect('/tokens');
    expect(window.sessionStorage.getItem('latchkey.dialog-draft')).toContain('Ada’s private project');

    // Grace signs in at the sign-in page Ada's tab was sent to.
    db.user = { id: 'usr_grace', name: 'Grace Hopper', email: 'grace@example.test' };
    comeBackFromSignIn('/tokens');
    await screen.findByText('Grace Hopper');
    await screen.findByText('No API tokens yet');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain('Ada’s private project');
    expect(window.sessionStorage.getItem('latchkey.dialog-draft')).toBeNull();
  });

  it('AX-11 a session that ends on a page with no form open saves nothing', async () => {
    db.signedIn = false;
    renderApp('/tokens');
    await expectSignInRedirect('/tokens');
    expect(window.sessionStorage.length).toBe(0);
  });
});

describe('AX-11 edit dialogs and the roll and new-secret forms come back too', () => {
  const SAVED_TITLE = 'Your session ended, so nothing was saved.';

  it('AX-11 Edit token: a 401 on Save; after sign-in Edit token is open again for that token, with what was typed', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys', description: 'Old words' })];
    endSessionOn('/bff/api/tokens/tok_ci', 'patch');
    const first = renderApp('/tokens');
    const row = (await screen.findByText('CI deploys', { selector: '.cell-title' })).closest('tr')!;
    await first.user.click(within(row).getByRole('button', { name: /^Edit/ }));
    const form = screen.getByRole('dialog', { name: 'Edit token' });
    await first.user.clear(within(form).getByLabelText('Token name'));
    await first.user.type(within(form).getByLabelText('Token name'), 'CI deploys (main)');
    await first.user.click(within(form).getByRole('button', { name: 'Save' }));
    await expectSignInRedirect('/tokens');

    comeBackFromSignIn('/tokens');
    const back = await screen.findByRole('dialog', { name: 'Edit token' });
    expect(back.textContent).toContain(SAVED_TITLE);
    expect(back.textContent).toContain(NOTICE_BODY);
    expect(within(back).getByLabelText<HTMLInputElement>('Token name').value).toBe('CI deploys (main)');
    expect(within(back).getByLabelText<HTMLTextAreaElement>('Description (optional)').value).toBe('Old words');
    expect(window.sessionStorage.length).toBe(0);
  });

  it('AX-11 Roll token: a 401 on Roll token; after sign-in Roll token is open again with the overlap chosen', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys' })];
    endSessionOn('/bff/api/tokens/tok_ci/roll');
    const first = renderApp('/tokens');
    const row = (await screen.findByText('CI deploys', { selector: '.cell-title' })).closest('tr')!;
    await first.user.click(within(row).getByRole('button', { name: /^Roll/ }));
    const form = screen.getByRole('dialog', { name: 'Roll token' });
    await first.user.click(within(form).getByLabelText('24 hours'));
    await first.user.click(within(form).getByRole('button', { name: 'Roll token' }));
    await expectSignInRedirect('/tokens');

    comeBackFromSignIn('/tokens');
    const back = await screen.findByRole('dialog', { name: 'Roll token' });
    expect(back.textContent).toContain(NOTICE_TITLE);
    expect(within(back).getByLabelText<HTMLInputElement>('24 hours').checked).toBe(true);
    expect(window.sessionStorage.length).toBe(0);
  });

  it('AX-11 Edit client: a 401 on Save changes; after sign-in Edit client is open again with the URLs typed', async () => {
    db.clients = [makeClient({ id: 'lkc_e', name: 'Acme Dashboard' })];
    endSessionOn('/bff/api/clients/lkc_e', 'patch');
    const first = renderApp('/clients/lkc_e');
    await first.user.click(await screen.findByRole('button', { name: 'Edit client' }));
    const form = screen.getByRole('dialog', { name: 'Edit client' });
    await first.user.type(within(form).getByLabelText('Homepage URL (optional)'), 'https://acme.example');
    await first.user.type(within(form).getByLabelText('Description (optional)'), 'Dashboards');
    await first.user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await expectSignInRedirect('/clients/lkc_e');

    comeBackFromSignIn('/clients/lkc_e');
    const back = await screen.findByRole('dialog', { name: 'Edit client' });
    expect(back.textContent).toContain(SAVED_TITLE);
    expect(within(back).getByLabelText<HTMLInputElement>('Homepage URL (optional)').value).toBe('https://acme.example');
    expect(within(back).getByLabelText<HTMLTextAreaElement>('Description (optional)').value).toBe('Dashboards');
    expect(within(back).getByLabelText<HTMLInputElement>('Client name').value).toBe('Acme Dashboard');
    expect(window.sessionStorage.length).toBe(0);
  });

  it('AX-11 Generate a new secret: a 401 on Generate secret; after sign-in the form is back with the expiry chosen, and no secret is kept', async () => {
    db.clients = [makeClient({ id: 'lkc_g', name: 'Rotating App' })];
    db.clientSecrets = { lkc_g: [makeSecret({ id: 'cs_first', last4: 'Ab12' })] };
    endSessionOn('/bff/api/clients/lkc_g/secrets');
    const first = renderApp('/clients/lkc_g');
    await screen.findByRole('table', { name: 'Client secrets' });
    await first.user.click(screen.getByRole('button', { name: 'Generate a new secret' }));
    const form = screen.getByRole('dialog', { name: 'Generate a new secret' });
    await first.user.selectOptions(
      within(form).getByLabelText('When should the current secret stop working?'),
      'In 7 days',
    );
    await first.user.click(within(form).getByRole('button', { name: 'Generate secret' }));
    await expectSignInRedirect('/clients/lkc_g');
    expect(JSON.parse(window.sessionStorage.getItem('latchkey.dialog-draft')!)).toEqual({
      path: '/clients/lkc_g',
      owner: 'usr_ada',
      dialog: 'generate-secret:lkc_g',
      fields: { oldSecretExpiresIn: '7d' },
    });

    comeBackFromSignIn('/clients/lkc_g');
    const back = await screen.findByRole('dialog', { name: 'Generate a new secret' });
    expect(back.textContent).toContain(NOTICE_TITLE);
    expect(within(back).getByLabelText<HTMLSelectElement>('When should the current secret stop working?').value).toBe(
      '7d',
    );
    expect(window.sessionStorage.length).toBe(0);
  });
});
