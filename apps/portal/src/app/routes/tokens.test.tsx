import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DAY, db, iso, makeApplication, makeToken, NOW } from '../../testing/mocks/db.ts';
import { server } from '../../testing/mocks/server.ts';
import { cacheContents, expectSignInRedirect, renderApp, screen } from '../../testing/test-utils.tsx';

const TOKEN_VALUE = 'lkp_TOKENvalueTOKENvalueTOKENva12WxYz';

describe('API tokens page', () => {
  it("TR-09 lists personal tokens with name, last 4 characters, dates, status, and marks those that expire soon; an application's tokens are not rows here", async () => {
    db.tokens = [
      makeToken({ name: 'CI deploys', last4: 'a1B2', last_used_at: iso(NOW - 2 * DAY) }),
      // A 30-day token with 3 days left expires soon (TR-09).
      makeToken({
        name: 'Laptop script',
        last4: 'Zz99',
        created_at: iso(NOW - 27 * DAY),
        expires_at: iso(NOW + 3 * DAY),
      }),
      makeToken({ name: 'Old one', last4: 'Qq11', status: 'revoked' }),
      makeToken({ name: 'Old laptop', last4: 'Ex01', status: 'expired', expires_at: iso(NOW - DAY) }),
      makeToken({ name: 'Acme Dashboard', kind: 'oauth', last4: 'Oa0A' }),
    ];
    renderApp('/tokens');

    const table = await screen.findByRole('table', { name: 'API tokens' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['Name', 'Token', 'Scopes', 'Created', 'Expires', 'Last used', 'Status', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);

    const ci = within(rows[0]!);
    expect(ci.getByText('CI deploys')).toBeTruthy();
    expect(rows[0]!.textContent).toContain('…a1B2');
    expect(ci.getByText('Active')).toBeTruthy();
    expect(ci.queryByText('Never used')).toBeNull();
    expect(ci.queryByText('Expires soon')).toBeNull();
    expect(ci.getByRole('button', { name: 'Revoke token CI deploys' })).toBeTruthy();

    expect(within(rows[1]!).getByText('Expires soon')).toBeTruthy();
    expect(within(rows[1]!).getByText('Never used')).toBeTruthy();

    expect(within(rows[2]!).getByText('Revoked')).toBeTruthy();
    expect(within(rows[2]!).queryByRole('button', { name: /^Revoke/ })).toBeNull();
    expect(within(rows[3]!).getByText('Expired')).toBeTruthy();
    expect(within(rows[3]!).getByText('Personal access token')).toBeTruthy();
    expect(within(rows[3]!).queryByText('Expires soon')).toBeNull();
    expect(within(table).queryByText('Acme Dashboard')).toBeNull();
  });

  it('shows a loading state, then an empty state when there are no tokens', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/bff/api/tokens', async () => {
        await gate;
        return HttpResponse.json([]);
      }),
    );
    renderApp('/tokens');
    expect((await screen.findByText('Loading API tokens…')).closest('[role="status"]')).toBeTruthy();
    release();
    expect(await screen.findByText('No API tokens yet')).toBeTruthy();
    expect(screen.queryByText('Loading API tokens…')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows an error with the reason when the list fails, and Try again reloads it', async () => {
    let fail = true;
    server.use(
      http.get('/bff/api/tokens', () =>
        fail
          ? HttpResponse.json(
              {
                error: 'temporarily_unavailable',
                error_description: 'The service is temporarily unavailable. Try again shortly.',
              },
              { status: 503 },
            )
          : HttpResponse.json([makeToken({ name: 'Back again' })]),
      ),
    );
    const { user } = renderApp('/tokens');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load your API tokens');
    expect(alert.textContent).toContain('The service is temporarily unavailable. Try again shortly.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Back again')).toBeTruthy();
  });

  it('generates a token with the 1 year default and shows it once, with a copy button, outside the query cache', async () => {
    const { user, queryClient } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');

    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Token name'));
    const expiration = within(dialog).getByLabelText<HTMLSelectElement>('Expiration');
    expect(expiration.value).toBe('365');
    expect([...expiration.options].map((o) => o.text)).toEqual([
      '7 days',
      '30 days',
      '90 days',
      '1 year',
      'Custom date',
    ]);

    await user.type(within(dialog).getByLabelText('Token name'), 'Deploy bot');
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));

    const shown = await screen.findByRole('dialog', { name: 'Token generated' });
    expect(within(shown).getByLabelText<HTMLInputElement>('Token').value).toBe(TOKEN_VALUE);
    expect(shown.textContent).toContain('You will not see this token again');
    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN_VALUE);
    expect(within(shown).getByRole('button', { name: 'Copy token' }).textContent).toBe('Copied');

    const create = db.requests.find((r) => r.method === 'POST' && r.path === '/bff/api/tokens')!;
    expect(create.body).toEqual({ name: 'Deploy bot', expires_in_days: 365, scopes: ['profile', 'email'] });
    expect(create.headers.get('X-Latchkey-Portal')).toBe('1');
    expect(create.headers.get('Content-Type')).toBe('application/json');

    // The list refreshed behind the dialog; the value is in no cache.
    expect(await screen.findByRole('table', { name: 'API tokens' })).toBeTruthy();
    expect(cacheContents(queryClient)).not.toContain(TOKEN_VALUE);
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
    expect(window.location.href).not.toContain(TOKEN_VALUE);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain(TOKEN_VALUE);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Generate token' }));

    // Opening the dialog again starts from an empty form: the token is not shown twice.
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const again = screen.getByRole('dialog', { name: 'Generate token' });
    expect(within(again).getByLabelText<HTMLInputElement>('Token name').value).toBe('');
    expect(document.body.textContent).not.toContain(TOKEN_VALUE);
  });

  it('sends the chosen preset as a number of days', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    await user.type(within(dialog).getByLabelText('Token name'), 'Short lived');
    await user.selectOptions(within(dialog).getByLabelText('Expiration'), '7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    await screen.findByRole('dialog', { name: 'Token generated' });
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Short lived',
      expires_in_days: 7,
      scopes: ['profile', 'email'],
    });
  });

  it('asks for a date with Custom date, refuses past dates, and sends the chosen day', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    await user.type(within(dialog).getByLabelText('Token name'), 'Until spring');
    expect(within(dialog).queryByLabelText('Expiration date')).toBeNull();
    await user.selectOptions(within(dialog).getByLabelText('Expiration'), 'Custom date');

    const date = within(dialog).getByLabelText<HTMLInputElement>('Expiration date');
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    expect(within(dialog).getByText('Choose the date the token expires.')).toBeTruthy();
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(date);

    await user.type(date, '2020-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    expect(within(dialog).getByText('Choose a date after today.')).toBeTruthy();
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    const nextYear = new Date().getFullYear() + 1;
    await user.clear(date);
    await user.type(date, `${nextYear}-03-01`);
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    await screen.findByRole('dialog', { name: 'Token generated' });
    const body = db.requests.find((r) => r.method === 'POST')!.body as { name: string; expires_at: string };
    expect(body.name).toBe('Until spring');
    expect(new Date(body.expires_at).getTime()).toBe(new Date(nextYear, 2, 1).getTime());
  });

  it('SC-07 the dialog offers each third-party scope by its sentence, all ticked; a profile-only token is sent and listed so', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    const group = within(dialog).getByRole('group', { name: 'Scopes' });
    const boxes = within(group).getAllByRole<HTMLInputElement>('checkbox');
    expect(boxes.map((box) => [box.value, box.checked])).toEqual([
      ['profile', true],
      ['email', true],
    ]);
    expect(within(group).getByLabelText(/^See your user id and name/)).toBe(boxes[0]);
    expect(within(group).getByLabelText(/^See your email address/)).toBe(boxes[1]);
    expect(within(group).queryByLabelText(/Manage your API clients/)).toBeNull();

    await user.type(within(dialog).getByLabelText('Token name'), 'Names only');
    await user.click(boxes[1]!);
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    const shown = await screen.findByRole('dialog', { name: 'Token generated' });
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Names only',
      expires_in_days: 365,
      scopes: ['profile'],
    });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    const row = (await screen.findByText('Names only')).closest('tr')!;
    expect(row.querySelector('td[data-label="Scopes"]')!.textContent).toBe('profile');
  });

  it('SC-07 with every scope unticked, Generate token says to choose one, focuses the first box and sends nothing', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    await user.type(within(dialog).getByLabelText('Token name'), 'Nothing');
    const group = within(dialog).getByRole('group', { name: 'Scopes' });
    for (const box of within(group).getAllByRole('checkbox')) await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    const message = within(dialog).getByText('Choose at least one scope.');
    expect(group.getAttribute('aria-describedby')).toContain(message.id);
    expect(document.activeElement).toBe(within(group).getAllByRole('checkbox')[0]);
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(within(group).getAllByRole('checkbox')[0]!);
    expect(within(dialog).queryByText('Choose at least one scope.')).toBeNull();
  });

  it('SC-07 the list shows each token’s scopes', async () => {
    db.tokens = [
      makeToken({ name: 'Both', scopes: ['profile', 'email'] }),
      makeToken({ name: 'Email reader', scopes: ['email'] }),
    ];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const scopes = [...table.querySelectorAll('td[data-label="Scopes"]')].map((cell) => cell.textContent);
    expect(scopes).toEqual(['profile, email', 'email']);
  });

  it('checks the name before sending, and shows the server’s field error next to its field', async () => {
    server.use(
      http.post('/bff/api/tokens', () =>
        HttpResponse.json(
          {
            error: 'validation_failed',
            error_description: 'Enter a token name of 1 to 100 characters.',
            field: 'name',
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });

    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    const name = within(dialog).getByLabelText('Token name');
    expect(within(dialog).getByText('Enter a token name.')).toBeTruthy();
    expect(name.getAttribute('aria-describedby')).toContain(within(dialog).getByText('Enter a token name.').id);

    await user.type(name, 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    expect(await within(dialog).findByText('Enter a token name of 1 to 100 characters.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
  });

  it('revokes a token after confirmation, and Cancel changes nothing', async () => {
    db.tokens = [makeToken({ id: 'tok_1', name: 'CI deploys' })];
    const { user } = renderApp('/tokens');
    const row = (await screen.findByText('CI deploys')).closest('tr')!;

    await user.click(within(row).getByRole('button', { name: 'Revoke token CI deploys' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Revoke this token?' });
    expect(confirm.textContent).toContain('CI deploys');
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(within(row).getByRole('button', { name: 'Revoke token CI deploys' }));
    confirm = screen.getByRole('alertdialog', { name: 'Revoke this token?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));

    expect(await within(row).findByText('Revoked')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /^Revoke/ })).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const revoke = db.requests.find((r) => r.method === 'POST')!;
    expect(revoke.path).toBe('/bff/api/tokens/tok_1/revoke');
    expect(revoke.headers.get('X-Latchkey-Portal')).toBe('1');
    expect(await screen.findByText('Revoked the token “CI deploys”.')).toBeTruthy();
  });

  it('keeps the confirmation open with the reason when revoking fails', async () => {
    db.tokens = [makeToken({ id: 'tok_gone', name: 'Gone' })];
    server.use(
      http.post('/bff/api/tokens/:id/revoke', () =>
        HttpResponse.json({ error: 'not_found', error_description: 'No such token.' }, { status: 404 }),
      ),
    );
    const { user } = renderApp('/tokens');
    const row = (await screen.findByText('Gone')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Revoke token Gone' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke this token?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('No such token.');
  });

  it('closes the confirmation with Escape, focus back on the row’s Revoke; opened again, the old failure is gone', async () => {
    db.tokens = [makeToken({ id: 'tok_gone', name: 'Gone' })];
    server.use(
      http.post('/bff/api/tokens/:id/revoke', () =>
        HttpResponse.json({ error: 'not_found', error_description: 'No such token.' }, { status: 404 }),
      ),
    );
    const { user } = renderApp('/tokens');
    const row = (await screen.findByText('Gone')).closest('tr')!;
    const revokeInRow = within(row).getByRole('button', { name: 'Revoke token Gone' });
    await user.click(revokeInRow);
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke this token?' });
    expect(confirm.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(confirm.getAttribute('aria-describedby')!)!.textContent).toContain(
      'This cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await within(confirm).findByRole('alert');

    // happy-dom has no Escape handling for <dialog>; a browser fires `cancel`.
    confirm.dispatchEvent(new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(revokeInRow);

    await user.click(revokeInRow);
    const again = screen.getByRole('alertdialog', { name: 'Revoke this token?' });
    expect(within(again).queryByRole('alert')).toBeNull();
    expect(within(again).getByRole('button', { name: 'Revoke' }).hasAttribute('disabled')).toBe(false);
  });

  it('AX-02 each active token’s Edit, Roll and Revoke name the token, the visible word first, with no description repeating it', async () => {
    db.tokens = [makeToken({ name: 'laptop' }), makeToken({ name: 'CI deploys' })];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const [laptop, ci] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    for (const [row, name] of [
      [laptop, 'laptop'],
      [ci, 'CI deploys'],
    ] as const) {
      for (const action of ['Edit', 'Roll', 'Revoke']) {
        const button = within(row).getByRole('button', { name: `${action} token ${name}` });
        // Label in Name: what is seen is where the accessible name starts; no aria-label overrides it.
        const visible = [...button.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE);
        expect(visible.map((node) => node.textContent).join('')).toBe(action);
        expect(button.querySelector('.visually-hidden')!.textContent).toBe(` token ${name}`);
        expect(button.hasAttribute('aria-label')).toBe(false);
        expect(button.hasAttribute('aria-describedby')).toBe(false);
      }
    }
  });

  it('AX-03 after a confirmed revoke, focus moves to the next token’s Revoke, the previous one’s from the last, then to the heading', async () => {
    db.tokens = [
      makeToken({ id: 'tok_a', name: 'alpha' }),
      makeToken({ id: 'tok_b', name: 'bravo' }),
      makeToken({ id: 'tok_c', name: 'charlie' }),
    ];
    const { user } = renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'API tokens' });
    async function revoke(name: string): Promise<void> {
      await user.click(within(table).getByRole('button', { name: `Revoke token ${name}` }));
      const confirm = screen.getByRole('alertdialog', { name: 'Revoke this token?' });
      await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
      await waitFor(() => expect(within(table).queryByRole('button', { name: `Revoke token ${name}` })).toBeNull());
    }

    // A revoked token stays listed, as Revoked and with no action: the next row's Revoke.
    await revoke('bravo');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(table).getByRole('button', { name: 'Revoke token charlie' })),
    );
    // The last active row: the one before it (bravo has nothing left to focus).
    await revoke('charlie');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(table).getByRole('button', { name: 'Revoke token alpha' })),
    );
    // None left to revoke: the page's heading, never <body>.
    await revoke('alpha');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'API tokens' })),
    );
    expect(within(table).getAllByText('Revoked')).toHaveLength(3);
  });

  it('AX-03 Cancel gives focus back to the row’s Revoke, and nothing moves it elsewhere', async () => {
    db.tokens = [makeToken({ id: 'tok_a', name: 'alpha' }), makeToken({ id: 'tok_b', name: 'bravo' })];
    const { user } = renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const opener = within(table).getByRole('button', { name: 'Revoke token alpha' });
    await user.click(opener);
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('sends the user to sign in and back to this page when the session has ended (401)', async () => {
    db.signedIn = false;
    renderApp('/tokens?sort=name');
    await expectSignInRedirect('/tokens?sort=name');
    expect(await screen.findAllByText('Your session has ended. Taking you to sign in…')).not.toHaveLength(0);
  });
});

describe('Authorized applications on the API tokens page', () => {
  it('AA-01 lists each application once, with its owner, dates and active sign-ins; an empty list says what will appear', async () => {
    db.applications = [
      makeApplication({
        client_id: 'lkc_printer',
        name: 'Photo Printer',
        active_grants: 4,
        last_used_at: iso(NOW - DAY),
      }),
    ];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'Authorized applications' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['Application', 'Scopes', 'First authorized', 'Last used', 'Active sign-ins', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('Photo Printer');
    expect(rows[0]!.textContent).toContain('by Dev Eloper');
    expect(within(rows[0]!).getByText('4')).toBeTruthy();
    expect(within(rows[0]!).queryByText('Never used')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Authorized applications' })).toBeTruthy();
  });

  it('SC-09 each application shows the scopes it holds', async () => {
    db.applications = [
      makeApplication({ client_id: 'lkc_names', name: 'Name Reader', scopes: ['profile'] }),
      makeApplication({ client_id: 'lkc_idle', name: 'Idle App', active_grants: 0, scopes: [] }),
    ];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'Authorized applications' });
    const cells = [...table.querySelectorAll('td[data-label="Scopes"]')].map((cell) => cell.textContent);
    expect(cells).toEqual(['profile', 'None']);
  });

  it('AA-01 with none authorized, an empty state instead of a table', async () => {
    renderApp('/tokens');
    expect(await screen.findByText('No authorized applications')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Authorized applications' })).toBeNull();
  });

  it('AA-02 Revoke access asks first, then removes the application and says so; Cancel changes nothing', async () => {
    db.applications = [makeApplication({ client_id: 'lkc_printer', name: 'Photo Printer', active_grants: 2 })];
    const { user } = renderApp('/tokens');
    const row = (await screen.findByText('Photo Printer')).closest('tr')!;

    await user.click(within(row).getByRole('button', { name: 'Revoke access for Photo Printer' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Revoke access?' });
    expect(confirm.textContent).toContain('ask for your permission again');
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(within(row).getByRole('button', { name: 'Revoke access for Photo Printer' }));
    confirm = screen.getByRole('alertdialog', { name: 'Revoke access?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke access' }));

    expect(await screen.findByText('Revoked the access of “Photo Printer”.')).toBeTruthy();
    expect(await screen.findByText('No authorized applications')).toBeTruthy();
    const revoke = db.requests.find((r) => r.method === 'POST')!;
    expect(revoke.path).toBe('/bff/api/applications/lkc_printer/revoke');
    expect(revoke.headers.get('X-Latchkey-Portal')).toBe('1');
  });

  it('CM-19 an app known by its metadata document is named by its host, its own name only as what it calls itself; one that registered itself says so; Revoke access works the same', async () => {
    db.applications = [
      makeApplication({
        client_id: 'https://claude.ai/oauth/client.json',
        name: 'Claude',
        owner_name: null,
        registration: 'metadata_document',
        host: 'claude.ai',
      }),
      makeApplication({ client_id: 'lkc_selfmade', name: 'Night Owl', owner_name: null, registration: 'dynamic' }),
    ];
    const { user } = renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'Authorized applications' });
    const [fromHost, dynamic] = within(table).getAllByRole('row').slice(1);
    const application = (row: HTMLElement) => row.querySelector('td[data-label="Application"]')!.textContent;
    expect(application(fromHost!)).toBe('App from claude.aiCalls itself “Claude” · not verified');
    expect(application(dynamic!)).toBe('Night OwlRegistered itself · not verified');
    expect(table.textContent).not.toContain('Latchkey');

    await user.click(within(fromHost!).getByRole('button', { name: 'Revoke access for App from claude.ai' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke access?' });
    expect(confirm.textContent).toContain('App from claude.ai can no longer use your account');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke access' }));
    expect(await screen.findByText('Revoked the access of “App from claude.ai”.')).toBeTruthy();
    const revoke = db.requests.find((r) => r.method === 'POST')!;
    expect(revoke.path).toBe(
      `/bff/api/applications/${encodeURIComponent('https://claude.ai/oauth/client.json')}/revoke`,
    );
  });

  it('AX-02 Revoke access names the application as the list does: "Revoke access for App from claude.ai"', async () => {
    db.applications = [
      makeApplication({ client_id: 'lkc_printer', name: 'Photo Printer' }),
      makeApplication({
        client_id: 'https://claude.ai/oauth/client.json',
        name: 'Claude',
        owner_name: null,
        registration: 'metadata_document',
        host: 'claude.ai',
      }),
    ];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'Authorized applications' });
    const buttons = within(table).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual([
      'Revoke access for Photo Printer',
      'Revoke access for App from claude.ai',
    ]);
    for (const button of buttons) {
      expect(button.firstChild!.textContent).toBe('Revoke access');
      expect(button.hasAttribute('aria-describedby')).toBe(false);
    }
  });

  it('AX-03 after Revoke access, focus moves to the next application’s, and to the empty state once none is left', async () => {
    db.applications = [
      makeApplication({ client_id: 'lkc_one', name: 'One App' }),
      makeApplication({ client_id: 'lkc_two', name: 'Two App' }),
    ];
    const { user } = renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'Authorized applications' });
    await user.click(within(table).getByRole('button', { name: 'Revoke access for One App' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke access' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(within(table).getByRole('button', { name: 'Revoke access for Two App' })),
    );
    expect(within(table).queryByText('One App')).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Revoke access for Two App' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke access' }));
    const empty = await screen.findByText('No authorized applications');
    await waitFor(() => expect(document.activeElement).toBe(empty));
  });

  it('AA-06 a failed revoke keeps the confirmation open with the reason', async () => {
    db.applications = [makeApplication({ client_id: 'lkc_gone', name: 'Gone App' })];
    server.use(
      http.post('/bff/api/applications/:id/revoke', () =>
        HttpResponse.json(
          { error: 'not_found', error_description: 'No such authorized application.' },
          { status: 404 },
        ),
      ),
    );
    const { user } = renderApp('/tokens');
    const row = (await screen.findByText('Gone App')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Revoke access for Gone App' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke access?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke access' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('No such authorized application.');
  });
});
