import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '../../lib/format-date.ts';
import { DAY, db, iso, makeClient, makeSecret, NOW } from '../../testing/mocks/db.ts';
import { NEW_CLIENT_SECRET } from '../../testing/mocks/handlers.ts';
import { server } from '../../testing/mocks/server.ts';
import { cacheContents, renderApp, screen } from '../../testing/test-utils.tsx';

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('issue 29: a client’s secrets (the Client secrets section of /clients/:id)', () => {
  it('SR-05 lists each secret by its last 4 characters, with created, expires and last used (or Never)', async () => {
    db.clients = [makeClient({ id: 'lkc_s' })];
    db.clientSecrets = {
      lkc_s: [
        makeSecret({ id: 'cs_old', last4: 'wXyZ', created_at: iso(NOW - 10 * DAY), last_used_at: iso(NOW - DAY) }),
        makeSecret({ id: 'cs_new', last4: 'aBcD', created_at: iso(NOW - DAY), expires_at: iso(NOW + DAY) }),
      ],
    };
    renderApp('/clients/lkc_s');
    const table = await screen.findByRole('table', { name: 'Client secrets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Secret', 'Created', 'Expires', 'Last used', 'Actions']);
    const [old, next] = rowsOf(table) as [HTMLElement, HTMLElement];
    expect(within(old).getByText('Secret ending in').parentElement!.textContent).toBe('Secret ending in …wXyZ');
    expect(
      within(old)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual([
      'Secret ending in …wXyZ',
      formatDate(iso(NOW - 10 * DAY)),
      'Never',
      formatDate(iso(NOW - DAY)),
      'Delete secret ending in wXyZ',
    ]);
    expect(
      within(next)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual([
      'Secret ending in …aBcD',
      formatDate(iso(NOW - DAY)),
      formatDateTime(iso(NOW + DAY)),
      'Never',
      'Delete secret ending in aBcD',
    ]);
    expect(table.textContent).not.toContain('lks_');
  });

  it('SR-01 Generate a new secret shows it once with a copy button, never in the cache; the list then has two and Generate is disabled (SR-02)', async () => {
    db.clients = [makeClient({ id: 'lkc_gen', name: 'Rotating App' })];
    db.clientSecrets = { lkc_gen: [makeSecret({ id: 'cs_first', last4: 'Ab12' })] };
    const { user, queryClient } = renderApp('/clients/lkc_gen');
    const table = await screen.findByRole('table', { name: 'Client secrets' });
    expect(rowsOf(table)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Generate a new secret' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate a new secret' });
    const when = within(dialog).getByLabelText<HTMLSelectElement>('When should the current secret stop working?');
    expect(document.activeElement).toBe(when);
    expect([...when.options].map((o) => o.text)).toEqual([
      'Keep working until I delete it',
      'In 1 hour',
      'In 1 day',
      'In 7 days',
    ]);
    await user.selectOptions(when, 'In 1 day');
    await user.click(within(dialog).getByRole('button', { name: 'Generate secret' }));

    const shown = await screen.findByRole('dialog', { name: 'New secret generated' });
    expect(shown.textContent).toContain('You will not see this secret again');
    expect(document.activeElement!.textContent).toContain('Copy the new secret now');
    expect(within(shown).getByLabelText<HTMLInputElement>('Client secret').value).toBe(NEW_CLIENT_SECRET);
    expect(shown.textContent).toMatch(/The secret ending in Ab12 stops working on/);
    await user.click(within(shown).getByRole('button', { name: 'Copy client secret' }));
    expect(await navigator.clipboard.readText()).toBe(NEW_CLIENT_SECRET);

    const create = db.requests.find((r) => r.method === 'POST')!;
    expect(create.path).toBe('/bff/api/clients/lkc_gen/secrets');
    expect(create.body).toEqual({ old_secret_expires_in: '1d' });
    expect(create.headers.get('X-Latchkey-Portal')).toBe('1');
    expect(cacheContents(queryClient)).not.toContain(NEW_CLIENT_SECRET);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain(NEW_CLIENT_SECRET);
    const rows = rowsOf(screen.getByRole('table', { name: 'Client secrets' }));
    expect(rows.map((row) => row.querySelector('code')!.textContent)).toEqual([
      'Secret ending in …Ab12',
      `Secret ending in …${NEW_CLIENT_SECRET.slice(-4)}`,
    ]);
    // SR-03: the first secret's Expires now shows when it stops working, a day on.
    const expires = within(rows[0]!).getAllByRole('cell')[2]!.querySelector('time')!;
    expect(Date.parse(expires.dateTime) - Date.now()).toBeGreaterThan(DAY - 60_000);
    const generate = screen.getByRole('button', { name: 'Generate a new secret' });
    expect(generate).toHaveProperty('disabled', true);
    const why = document.getElementById(generate.getAttribute('aria-describedby')!)!;
    expect(why.textContent).toContain('already has 2 secrets, the most it may have');
  });

  it('SR-03 keeps the current secret until it is deleted unless an expiry is chosen: nothing sent', async () => {
    db.clients = [makeClient({ id: 'lkc_keep' })];
    db.clientSecrets = { lkc_keep: [makeSecret({ id: 'cs_first', last4: 'Ab12' })] };
    const { user } = renderApp('/clients/lkc_keep');
    await user.click(await screen.findByRole('button', { name: 'Generate a new secret' }));
    await user.click(screen.getByRole('button', { name: 'Generate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New secret generated' });
    expect(shown.textContent).toContain('The secret ending in Ab12 keeps working until you delete it.');
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({});
  });

  it('SR-02 a refused Generate (limit_reached) is shown inside the dialog', async () => {
    db.clients = [makeClient({ id: 'lkc_full' })];
    server.use(
      http.post('/bff/api/clients/:id/secrets', () =>
        HttpResponse.json(
          { error: 'limit_reached', error_description: 'This client already has 2 secrets, the most it may have.' },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/clients/lkc_full');
    await user.click(await screen.findByRole('button', { name: 'Generate a new secret' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate a new secret' });
    await user.click(within(dialog).getByRole('button', { name: 'Generate secret' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This client already has 2 secrets, the most it may have.',
    );
  });

  it('SR-04 deletes a secret after a confirmation naming its last 4; the one left has no Delete', async () => {
    db.clients = [makeClient({ id: 'lkc_del' })];
    db.clientSecrets = {
      lkc_del: [makeSecret({ id: 'cs_keep', last4: 'wXyZ' }), makeSecret({ id: 'cs_gone', last4: 'aBcD' })],
    };
    const { user } = renderApp('/clients/lkc_del');
    const table = await screen.findByRole('table', { name: 'Client secrets' });
    const row = rowsOf(table)[1]!;
    const remove = within(row).getByRole('button', { name: 'Delete secret ending in aBcD' });
    await user.click(remove);

    const confirm = screen.getByRole('alertdialog', { name: 'Delete this secret?' });
    expect(confirm.textContent).toContain('The secret ending in aBcD stops working at once');
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Deleted the secret ending in aBcD.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const left = rowsOf(screen.getByRole('table', { name: 'Client secrets' }));
    expect(left).toHaveLength(1);
    expect(left[0]!.textContent).toContain('wXyZ');
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(screen.getByText(/this one cannot be deleted/)).toBeTruthy();
    const request = db.requests.find((r) => r.method === 'POST')!;
    expect(request.path).toBe('/bff/api/clients/lkc_del/secrets/cs_gone/delete');
    expect(request.headers.get('X-Latchkey-Portal')).toBe('1');
    expect(screen.getByRole('button', { name: 'Generate a new secret' })).toHaveProperty('disabled', false);
  });

  it('PC-01 a public client’s page says it has no secret, and offers no secret actions', async () => {
    db.clients = [makeClient({ id: 'lkc_pub', name: 'Browser App', public: true })];
    renderApp('/clients/lkc_pub');
    expect(await screen.findByRole('heading', { level: 1, name: 'Browser App' })).toBeTruthy();
    const section = screen.getByRole('region', { name: 'Client secrets' });
    expect(section.textContent).toContain('This is a public client: it has no secret.');
    expect(screen.getByText('Public: no secret, PKCE required')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate a new secret' })).toBeNull();
    expect(db.requests.some((r) => r.path.endsWith('/secrets'))).toBe(false);
  });

  it('a revoked client’s secrets are listed with neither Generate nor Delete', async () => {
    db.clients = [makeClient({ id: 'lkc_rev', status: 'revoked', revoked_at: iso(NOW) })];
    db.clientSecrets = { lkc_rev: [makeSecret({ last4: 'wXyZ' }), makeSecret({ last4: 'aBcD' })] };
    renderApp('/clients/lkc_rev');
    const table = await screen.findByRole('table', { name: 'Client secrets' });
    expect(rowsOf(table)).toHaveLength(2);
    expect(screen.getByText('This client is revoked: its secrets no longer work.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate a new secret' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
  });

  it('AX-02 each Delete names its secret ("Delete secret ending in aBcD"), the visible word first, with no description repeating it', async () => {
    db.clients = [makeClient({ id: 'lkc_names' })];
    db.clientSecrets = {
      lkc_names: [makeSecret({ id: 'cs_1', last4: 'wXyZ' }), makeSecret({ id: 'cs_2', last4: 'aBcD' })],
    };
    renderApp('/clients/lkc_names');
    const table = await screen.findByRole('table', { name: 'Client secrets' });
    for (const last4 of ['wXyZ', 'aBcD']) {
      const button = within(table).getByRole('button', { name: `Delete secret ending in ${last4}` });
      expect(button.firstChild!.textContent).toBe('Delete');
      expect(button.hasAttribute('aria-label')).toBe(false);
      expect(button.hasAttribute('aria-describedby')).toBe(false);
    }
  });

  it('AX-03 once a secret is deleted and the one left cannot be, focus moves to the Client secrets heading, never <body>', async () => {
    db.clients = [makeClient({ id: 'lkc_focus' })];
    db.clientSecrets = {
      lkc_focus: [makeSecret({ id: 'cs_1', last4: 'wXyZ' }), makeSecret({ id: 'cs_2', last4: 'aBcD' })],
    };
    const { user } = renderApp('/clients/lkc_focus');
    const table = await screen.findByRole('table', { name: 'Client secrets' });
    await user.click(within(table).getByRole('button', { name: 'Delete secret ending in wXyZ' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Deleted the secret ending in wXyZ.');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Client secrets' })),
    );
  });
});
