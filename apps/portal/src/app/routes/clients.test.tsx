import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { db, iso, makeClient, NOW } from '../../testing/mocks/db.ts';
import { server } from '../../testing/mocks/server.ts';
import { cacheContents, expectSignInRedirect, renderApp, screen } from '../../testing/test-utils.tsx';

const CLIENT_SECRET = 'lks_SECRETsecretSECRETsecret0123abcd';

async function openNewClient(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'New client' }));
  return screen.getByRole('dialog', { name: 'New client' });
}

describe('API clients page', () => {
  it('lists clients with name, client ID, redirect URL, created and status; revoked ones stay, marked revoked', async () => {
    db.clients = [
      makeClient({ id: 'lkc_active1', name: 'Acme Dashboard', redirect_uri: 'https://dashboard.acme.test/callback' }),
      makeClient({
        id: 'lkc_revoked',
        name: 'Old CLI',
        redirect_uri: 'http://127.0.0.1:8080/cb',
        status: 'revoked',
        revoked_at: iso(NOW),
      }),
    ];
    renderApp('/clients');

    const table = await screen.findByRole('table', { name: 'API clients' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Client ID', 'Redirect URL', 'Created', 'Status', 'Actions']);
    const [active, revoked] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(active.textContent).toContain('Acme Dashboard');
    expect(active.textContent).toContain('lkc_active1');
    expect(active.textContent).toContain('https://dashboard.acme.test/callback');
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByRole('button', { name: 'Revoke client Acme Dashboard' })).toBeTruthy();
    expect(within(revoked).getByText('Revoked')).toBeTruthy();
    expect(within(revoked).queryByRole('button', { name: /^Revoke/ })).toBeNull();
  });

  it('shows a loading state, then an empty state when there are no clients', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/bff/api/clients', async () => {
        await gate;
        return HttpResponse.json([]);
      }),
    );
    renderApp('/clients');
    expect((await screen.findByText('Loading API clients…')).closest('[role="status"]')).toBeTruthy();
    release();
    expect(await screen.findByText('No API clients yet')).toBeTruthy();
  });

  it('shows an error state when the list cannot be loaded', async () => {
    server.use(http.get('/bff/api/clients', () => new HttpResponse('<h1>Bad gateway</h1>', { status: 502 })));
    renderApp('/clients');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load your API clients');
    expect(alert.textContent).toContain('The service is temporarily unavailable. Try again shortly.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('registers a client and shows its ID and secret once, each with a copy button, never in the cache', async () => {
    const { user, queryClient } = renderApp('/clients');
    await screen.findByText('No API clients yet');

    const dialog = await openNewClient(user);
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Client name'));
    await user.type(within(dialog).getByLabelText('Client name'), '  My App ');
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'https://app.example.com/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));

    const shown = await screen.findByRole('dialog', { name: 'Client created' });
    expect(shown.textContent).toContain('You will not see this secret again');
    const clientId = within(shown).getByLabelText<HTMLInputElement>('Client ID').value;
    expect(clientId).toMatch(/^lkc_/);
    expect(within(shown).getByLabelText<HTMLInputElement>('Client secret').value).toBe(CLIENT_SECRET);

    await user.click(within(shown).getByRole('button', { name: 'Copy client secret' }));
    expect(await navigator.clipboard.readText()).toBe(CLIENT_SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy client ID' }));
    expect(await navigator.clipboard.readText()).toBe(clientId);

    const create = db.requests.find((r) => r.method === 'POST')!;
    expect(create.path).toBe('/bff/api/clients');
    expect(create.body).toEqual({ name: 'My App', redirect_uri: 'https://app.example.com/callback' });
    expect(create.headers.get('X-Latchkey-Portal')).toBe('1');

    // The list behind the dialog now has the client, without its secret.
    const table = await screen.findByRole('table', { name: 'API clients' });
    expect(table.textContent).toContain('My App');
    expect(table.textContent).not.toContain(CLIENT_SECRET);
    expect(cacheContents(queryClient)).not.toContain(CLIENT_SECRET);
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain(CLIENT_SECRET);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New client' }));
  });

  it('PC-01 registers a public client: sends public: true and shows the client ID with no secret; the list marks it Public', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'Browser App');
    const isPublic = within(dialog).getByLabelText('Public client (no secret)');
    expect(document.getElementById(isPublic.getAttribute('aria-describedby')!)!.textContent).toContain(
      'cannot keep a secret',
    );
    await user.click(isPublic);
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'https://spa.example.com/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));

    const shown = await screen.findByRole('dialog', { name: 'Client created' });
    expect(document.activeElement!.textContent).toContain('This client has no secret');
    expect(shown.textContent).toContain('must use PKCE (S256)');
    expect(shown.textContent).not.toContain('You will not see this secret again');
    expect(within(shown).getByLabelText<HTMLInputElement>('Client ID').value).toMatch(/^lkc_/);
    expect(within(shown).queryByLabelText('Client secret')).toBeNull();
    expect(shown.textContent).not.toContain('lks_');
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Browser App',
      redirect_uri: 'https://spa.example.com/callback',
      public: true,
    });

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    const row = (await screen.findByRole('link', { name: 'Browser App' })).closest('tr')!;
    expect(within(row).getByText('Public')).toBeTruthy();
  });

  it('PC-05 refuses a private-use scheme redirect URL for a confidential client and accepts it for a public one', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'Phone App');
    const field = within(dialog).getByLabelText('Redirect URL');
    await user.type(field, 'com.example.app:/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect(within(dialog).getByText('The redirect URL must use https (or http for a loopback address).')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(within(dialog).getByLabelText('Public client (no secret)'));
    expect(field.getAttribute('aria-invalid')).toBe('false');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect(await screen.findByRole('dialog', { name: 'Client created' })).toBeTruthy();
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Phone App',
      redirect_uri: 'com.example.app:/callback',
      public: true,
    });
  });

  it.each([
    ['ftp://files.example.com/cb', 'The redirect URL must use https (or http for a loopback address).'],
    ['http://app.example.com/callback', 'Use https, or http only for localhost, 127.0.0.1 or [::1].'],
    ['https://app.example.com/callback#done', 'The redirect URL must not contain a fragment (#).'],
    ['https://*.example.com/callback', 'The redirect URL must not contain a wildcard (*).'],
    ['/callback', 'The redirect URL must be an absolute URL such as https://app.example/callback.'],
  ])('refuses the redirect URL %s before sending anything', async (url, message) => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'My App');
    await user.type(within(dialog).getByLabelText('Redirect URL'), url);
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));

    const field = within(dialog).getByLabelText('Redirect URL');
    expect(within(dialog).getByText(message)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('registers an optional post-logout redirect URL, checked like the redirect URL (SO-01)', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'My App');
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'https://app.example.com/callback');
    const postLogout = within(dialog).getByLabelText('Post-logout redirect URL (optional)');
    await user.type(postLogout, 'http://app.example.com/bye');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect(within(dialog).getByText('Use https, or http only for localhost, 127.0.0.1 or [::1].')).toBeTruthy();
    expect(document.activeElement).toBe(postLogout);
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.clear(postLogout);
    await user.type(postLogout, 'https://app.example.com/signed-out');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect(await screen.findByRole('dialog', { name: 'Client created' })).toBeTruthy();
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'My App',
      redirect_uri: 'https://app.example.com/callback',
      post_logout_redirect_uri: 'https://app.example.com/signed-out',
    });
  });

  it('accepts loopback http redirect URLs', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'Local tool');
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'http://localhost:8080/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect(await screen.findByRole('dialog', { name: 'Client created' })).toBeTruthy();
  });

  it('shows the server’s validation error next to the field it names', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'My App');
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'https://example.invalid/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));

    const message = await within(dialog).findByText('The redirect URL must not point at example.invalid.');
    const field = within(dialog).getByLabelText('Redirect URL');
    expect(field.getAttribute('aria-describedby')).toContain(message.id);
    expect(document.activeElement).toBe(field);
    expect(screen.queryByRole('dialog', { name: 'Client created' })).toBeNull();
  });

  it('shows a failure that names no field inside the dialog', async () => {
    server.use(http.post('/bff/api/clients', () => HttpResponse.json({ error: 'forbidden' }, { status: 403 })));
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    await user.type(within(dialog).getByLabelText('Client name'), 'My App');
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'https://app.example.com/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The portal refused this request. Reload the page and try again.',
    );
  });

  it('closes the form with Escape and returns focus to New client', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    const dialog = await openNewClient(user);
    // happy-dom has no Escape handling for <dialog>; a browser fires `cancel`.
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    await screen.findByRole('button', { name: 'New client' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New client' }));
  });

  it('revokes a client after confirmation; it stays listed as revoked', async () => {
    db.clients = [makeClient({ id: 'lkc_target', name: 'Acme Dashboard' })];
    const { user } = renderApp('/clients');
    const row = (await screen.findByText('Acme Dashboard')).closest('tr')!;

    await user.click(within(row).getByRole('button', { name: 'Revoke client Acme Dashboard' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke this client?' });
    expect(confirm.textContent).toContain('every token it has issued stops working immediately');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));

    expect(await within(row).findByText('Revoked')).toBeTruthy();
    expect(row.textContent).toContain('Acme Dashboard');
    expect(within(row).queryByRole('button', { name: /^Revoke/ })).toBeNull();
    const revoke = db.requests.find((r) => r.method === 'POST')!;
    expect(revoke.path).toBe('/bff/api/clients/lkc_target/revoke');
    expect(revoke.body).toBeUndefined();
    expect(revoke.headers.get('X-Latchkey-Portal')).toBe('1');
  });

  it('AX-02 each client’s Revoke names it ("Revoke client Weather Widget"), the visible word first, with no description repeating it', async () => {
    db.clients = [
      makeClient({ id: 'lkc_ww', name: 'Weather Widget' }),
      makeClient({ id: 'lkc_ad', name: 'Acme Dashboard' }),
    ];
    renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'API clients' });
    for (const name of ['Weather Widget', 'Acme Dashboard']) {
      const button = within(table).getByRole('button', { name: `Revoke client ${name}` });
      expect(button.firstChild!.textContent).toBe('Revoke');
      expect(button.hasAttribute('aria-label')).toBe(false);
      expect(button.hasAttribute('aria-describedby')).toBe(false);
    }
  });

  it('AX-03 after a confirmed revoke, focus moves to the next client’s Revoke, the previous one’s from the last, then to the heading', async () => {
    db.clients = [makeClient({ id: 'lkc_a', name: 'Alpha App' }), makeClient({ id: 'lkc_b', name: 'Bravo App' })];
    const { user } = renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'API clients' });
    async function revoke(name: string): Promise<void> {
      await user.click(within(table).getByRole('button', { name: `Revoke client ${name}` }));
      const confirm = screen.getByRole('alertdialog', { name: 'Revoke this client?' });
      await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
      await waitFor(() => expect(within(table).queryByRole('button', { name: `Revoke client ${name}` })).toBeNull());
    }
    await revoke('Bravo App');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(table).getByRole('button', { name: 'Revoke client Alpha App' })),
    );
    await revoke('Alpha App');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'API clients' })),
    );
  });

  it('AX-12 client IDs and redirect URLs may wrap after / . - _ ? & =, never inside a word', async () => {
    db.clients = [
      makeClient({
        id: 'lkc_wrap',
        client_id: 'lkc_Zx9kQ2pLmN4vB7tR',
        redirect_uri: 'https://very-long-subdomain.example.com/oauth/callback?from=portal&x=1',
      }),
    ];
    renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'API clients' });
    const segments = (label: string) =>
      table
        .querySelector(`td[data-label="${label}"] code`)!
        .innerHTML.replace(/<\/?span[^>]*>/g, '')
        .split('<wbr>');
    expect(segments('Redirect URL')).toEqual([
      'https://',
      'very-',
      'long-',
      'subdomain.',
      'example.',
      'com/',
      'oauth/',
      'callback?',
      'from=',
      'portal&amp;',
      'x=',
      '1',
    ]);
    expect(segments('Client ID')).toEqual(['lkc_', 'Zx9kQ2pLmN4vB7tR']);
    expect(table.querySelector('td[data-label="Redirect URL"] code')!.textContent).toBe(
      'https://very-long-subdomain.example.com/oauth/callback?from=portal&x=1',
    );
  });

  it('sends the user to sign in and back here when the session has ended (401)', async () => {
    db.signedIn = false;
    renderApp('/clients');
    await expectSignInRedirect('/clients');
  });
});
