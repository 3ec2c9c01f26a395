import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DAY, db, iso, makeApplication, makeToken, NOW } from '../../testing/mocks/db.ts';
import { ROLLED_TOKEN_VALUE } from '../../testing/mocks/handlers.ts';
import { server } from '../../testing/mocks/server.ts';
import { cacheContents, renderApp, screen } from '../../testing/test-utils.tsx';

// Issue 35 on the API tokens page: descriptions, Edit, Roll, the expiring-soon banner and where
// each token was last used. tokens.test.tsx covers the list, Generate token and Revoke.

const CHROME_ON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const rowOf = async (name: string) => (await screen.findByText(name, { selector: '.cell-title' })).closest('tr')!;

describe('TR-01 TR-13 token descriptions and Edit token', () => {
  it('TR-01 Generate token sends the description, and the list shows it under the name', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    await user.type(within(dialog).getByLabelText('Token name'), 'Deploy bot');
    await user.type(within(dialog).getByLabelText('Description (optional)'), '  Pushes main to production  ');
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    const shown = await screen.findByRole('dialog', { name: 'Token generated' });
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Deploy bot',
      description: 'Pushes main to production',
      expires_in_days: 365,
      scopes: ['profile', 'email'],
    });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    const row = await rowOf('Deploy bot');
    const name = row.querySelector('td[data-label="Name"]')!;
    expect(name.textContent).toBe('Deploy botPushes main to productionPersonal access token');
  });

  it('TR-01 a description over 300 characters is refused beside its field before anything is sent', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByText('No API tokens yet');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = screen.getByRole('dialog', { name: 'Generate token' });
    await user.type(within(dialog).getByLabelText('Token name'), 'Long story');
    const description = within(dialog).getByLabelText('Description (optional)');
    await user.click(description);
    await user.paste('x'.repeat(301));
    await user.click(within(dialog).getByRole('button', { name: 'Generate token' }));
    expect(within(dialog).getByText('Use at most 300 characters.')).toBeTruthy();
    expect(description.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(description);
    expect(db.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('TR-13 Edit on a row opens Edit token with its name and description; Save sends PATCH and the list shows the new ones', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys', description: 'Old words' })];
    const { user } = renderApp('/tokens');
    const row = await rowOf('CI deploys');
    // AX-02: the button names its row itself; no description repeats it.
    const edit = within(row).getByRole('button', { name: 'Edit token CI deploys' });
    expect(edit.hasAttribute('aria-describedby')).toBe(false);
    await user.click(edit);

    const dialog = screen.getByRole('dialog', { name: 'Edit token' });
    const name = within(dialog).getByLabelText<HTMLInputElement>('Token name');
    const description = within(dialog).getByLabelText<HTMLTextAreaElement>('Description (optional)');
    expect(name.value).toBe('CI deploys');
    expect(description.value).toBe('Old words');
    expect(document.activeElement).toBe(name);
    await user.clear(name);
    await user.type(name, 'Release bot');
    await user.clear(description);
    await user.type(description, 'Tags releases');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved the token “Release bot”.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const patch = db.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe('/bff/api/tokens/tok_ci');
    expect(patch.body).toEqual({ name: 'Release bot', description: 'Tags releases' });
    expect(patch.headers.get('X-Latchkey-Portal')).toBe('1');
    const after = await rowOf('Release bot');
    expect(within(after).getByText('Tags releases')).toBeTruthy();
  });

  it('TR-13 an emptied description is sent as null, clearing it', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys', description: 'Goes away' })];
    const { user } = renderApp('/tokens');
    await user.click(within(await rowOf('CI deploys')).getByRole('button', { name: 'Edit token CI deploys' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit token' });
    await user.clear(within(dialog).getByLabelText('Description (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved the token “CI deploys”.');
    expect(db.requests.find((r) => r.method === 'PATCH')!.body).toEqual({ name: 'CI deploys', description: null });
    await waitFor(() => expect(screen.queryByText('Goes away')).toBeNull());
  });

  it('TR-13 checks the name before sending, and shows the server’s refusal under the field it names, the dialog left open', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys' })];
    const { user } = renderApp('/tokens');
    await user.click(within(await rowOf('CI deploys')).getByRole('button', { name: 'Edit token CI deploys' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit token' });
    const name = within(dialog).getByLabelText('Token name');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter a token name.')).toBeTruthy();
    expect(db.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);

    await user.type(name, 'CI deploys');
    const description = within(dialog).getByLabelText('Description (optional)');
    await user.type(description, 'see example.invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const message = await within(dialog).findByText('The description must not mention example.invalid.');
    expect(description.getAttribute('aria-describedby')).toContain(message.id);
    expect(description.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Edit token' })).toBeTruthy();
  });
});

describe('TR-12 Roll token', () => {
  it('TR-12 Roll asks how long the old value keeps working, sends the overlap, and shows the new value once with Copy, outside the query cache; the old row says until when it works', async () => {
    db.tokens = [
      makeToken({
        id: 'tok_ci',
        name: 'CI deploys',
        last4: 'a1B2',
        created_at: iso(NOW - 10 * DAY),
        expires_at: iso(NOW + 20 * DAY),
      }),
    ];
    const { user, queryClient } = renderApp('/tokens');
    const row = await rowOf('CI deploys');
    const rollButton = within(row).getByRole('button', { name: 'Roll token CI deploys' });
    expect(rollButton.hasAttribute('aria-describedby')).toBe(false);
    await user.click(rollButton);

    const dialog = screen.getByRole('dialog', { name: 'Roll token' });
    expect(dialog.textContent).toContain('A new value replaces CI deploys (ending in a1B2), with the same name');
    const group = within(dialog).getByRole('radiogroup', { name: 'Old value keeps working' });
    const radios = within(group).getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((radio) => [radio.value, radio.labels![0]!.textContent, radio.checked])).toEqual([
      ['none', 'No, stop it now', true],
      ['1h', '1 hour', false],
      ['24h', '24 hours', false],
      ['7d', '7 days', false],
    ]);
    await user.click(within(group).getByLabelText('1 hour'));
    await user.click(within(dialog).getByRole('button', { name: 'Roll token' }));

    const shown = await screen.findByRole('dialog', { name: 'Token rolled' });
    expect(within(shown).getByLabelText<HTMLInputElement>('Token').value).toBe(ROLLED_TOKEN_VALUE);
    expect(shown.textContent).toContain('You will not see this token again');
    expect(shown.textContent).toContain('The old value (ending in a1B2) keeps working for 1 hour');
    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(ROLLED_TOKEN_VALUE);

    const roll = db.requests.find((r) => r.method === 'POST')!;
    expect(roll.path).toBe('/bff/api/tokens/tok_ci/roll');
    expect(roll.body).toEqual({ overlap: '1h' });
    expect(roll.headers.get('X-Latchkey-Portal')).toBe('1');

    // Behind the dialog: the new token, and the old one in its overlap.
    await waitFor(() => expect(screen.getAllByText('CI deploys', { selector: '.cell-title' })).toHaveLength(2));
    expect(cacheContents(queryClient)).not.toContain(ROLLED_TOKEN_VALUE);
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(document.body.textContent).not.toContain(ROLLED_TOKEN_VALUE);

    const [fresh, old] = within(screen.getByRole('table', { name: 'API tokens' }))
      .getAllByRole('row')
      .slice(1);
    expect(fresh!.textContent).toContain('…34Rr');
    expect(within(fresh!).getByText('Active')).toBeTruthy();
    expect(within(fresh!).getByRole('button', { name: 'Roll token CI deploys' })).toBeTruthy();
    expect(old!.textContent).toContain('…a1B2');
    const status = old!.querySelector('td[data-label="Status"]')!;
    expect(status.textContent).toMatch(/^Rolledold value works until /);
    expect(status.querySelector('time')!.getAttribute('datetime')).toBe(db.tokens[1]!.expires_at);
    // Replaced: it can be revoked early, not edited or rolled again.
    expect(within(old!).queryByRole('button', { name: /^Roll/ })).toBeNull();
    expect(within(old!).queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(within(old!).getByRole('button', { name: 'Revoke token CI deploys' })).toBeTruthy();
  });

  it('TR-12 AX-03 left at "No, stop it now", the roll sends none and the old row reads Revoked; Done puts focus on the heading, its Roll button being gone', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys', last4: 'a1B2' })];
    const { user } = renderApp('/tokens');
    await user.click(within(await rowOf('CI deploys')).getByRole('button', { name: 'Roll token CI deploys' }));
    const dialog = screen.getByRole('dialog', { name: 'Roll token' });
    await user.click(within(dialog).getByRole('button', { name: 'Roll token' }));
    const shown = await screen.findByRole('dialog', { name: 'Token rolled' });
    expect(shown.textContent).toContain('The old value (ending in a1B2) no longer works.');
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({ overlap: 'none' });
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getAllByText('CI deploys', { selector: '.cell-title' })).toHaveLength(2));
    const old = within(screen.getByRole('table', { name: 'API tokens' }))
      .getAllByRole('row')
      .find((row) => row.textContent.includes('…a1B2'))!;
    expect(within(old).getByText('Revoked')).toBeTruthy();
    expect(within(old).queryByRole('button', { name: /Roll/ })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'API tokens' }));
  });

  it('TR-12 a refused roll keeps the dialog open with the reason, and shows no value', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys' })];
    server.use(
      http.post('/bff/api/tokens/:id/roll', () =>
        HttpResponse.json(
          { error: 'invalid_request', error_description: 'This token was revoked: create a new token instead.' },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/tokens');
    await user.click(within(await rowOf('CI deploys')).getByRole('button', { name: 'Roll token CI deploys' }));
    const dialog = screen.getByRole('dialog', { name: 'Roll token' });
    await user.click(within(dialog).getByRole('button', { name: 'Roll token' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This token was revoked: create a new token instead.',
    );
    expect(within(dialog).queryByLabelText('Token')).toBeNull();
  });

  it('TR-12 revoked and expired tokens offer neither Edit nor Roll', async () => {
    db.tokens = [
      makeToken({ name: 'Gone', status: 'revoked' }),
      makeToken({ name: 'Old', status: 'expired', expires_at: iso(NOW - DAY) }),
    ];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'API tokens' });
    expect(within(table).queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(within(table).queryByRole('button', { name: /^Roll/ })).toBeNull();
  });
});

describe('TR-10 the expiring-soon banner', () => {
  const banner = () => screen.queryByText(/expires? soon/, { selector: '[role="status"] *' });

  it('TR-10 a new 7-day token (TR-09: not expiring soon) shows no banner', async () => {
    db.tokens = [makeToken({ name: 'Short lived', created_at: iso(NOW), expires_at: iso(NOW + 7 * DAY) })];
    renderApp('/tokens');
    const row = await rowOf('Short lived');
    expect(within(row).queryByText('Expires soon')).toBeNull();
    expect(banner()).toBeNull();
  });

  it('TR-10 a 30-day token with 3 days left is named in the banner at the top and marked in its row', async () => {
    db.tokens = [
      makeToken({ name: 'deploy', created_at: iso(NOW - 27 * DAY), expires_at: iso(NOW + 3 * DAY) }),
      makeToken({ name: 'Short lived', created_at: iso(NOW), expires_at: iso(NOW + 7 * DAY) }),
      makeToken({
        name: 'Revoked soon',
        status: 'revoked',
        created_at: iso(NOW - 27 * DAY),
        expires_at: iso(NOW + 3 * DAY),
      }),
    ];
    renderApp('/tokens');
    const status = (await screen.findByText(/expires soon/, { selector: '[role="status"] *' })).closest(
      '[role="status"]',
    )!;
    expect(status.textContent).toBe('1 token expires soon: deploy (in 3 days). Roll it to keep it working.');
    // At the top: before the list.
    const table = screen.getByRole('table', { name: 'API tokens' });
    expect(status.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(await rowOf('deploy')).getByText('Expires soon')).toBeTruthy();
    expect(within(await rowOf('Short lived')).queryByText('Expires soon')).toBeNull();
  });
});

describe('TR-15 where each token and application was last used', () => {
  it('TR-15 a used token says when, from which address and with what, the full User-Agent on hover; an unused one says Never used', async () => {
    db.tokens = [
      makeToken({
        name: 'Laptop',
        last_used_at: iso(NOW - 2 * DAY),
        last_used_ip: '203.0.113.7',
        last_used_user_agent: CHROME_ON_MAC,
      }),
      makeToken({
        name: 'CI',
        last_used_at: iso(NOW - 3 * 60 * 60 * 1000),
        last_used_ip: '2001:db8::1',
        last_used_user_agent: 'curl/8.5.0',
      }),
      makeToken({ name: 'Spare' }),
    ];
    renderApp('/tokens');
    const lastUsed = async (name: string) => (await rowOf(name)).querySelector('td[data-label="Last used"]')!;

    const laptop = await lastUsed('Laptop');
    expect(laptop.textContent).toBe('Last used 2 days agofrom 203.0.113.7 · Chrome on macOS');
    expect(
      within(laptop as HTMLElement)
        .getByText('Chrome on macOS')
        .getAttribute('title'),
    ).toBe(CHROME_ON_MAC);
    expect(laptop.querySelector('time')!.getAttribute('datetime')).toBe(iso(NOW - 2 * DAY));
    expect((await lastUsed('CI')).textContent).toBe('Last used 3 hours agofrom 2001:db8::1 · curl/8.5');
    expect((await lastUsed('Spare')).textContent).toBe('Never used');
  });

  it('TR-15 an authorized application says where it was last used, or Never used', async () => {
    db.applications = [
      makeApplication({
        client_id: 'lkc_printer',
        name: 'Photo Printer',
        last_used_at: iso(NOW - DAY),
        last_used_ip: '198.51.100.4',
        last_used_user_agent: 'PhotoPrinter/2.1.0 (+https://printer.example)',
      }),
      makeApplication({ client_id: 'lkc_idle', name: 'Idle App' }),
    ];
    renderApp('/tokens');
    const table = await screen.findByRole('table', { name: 'Authorized applications' });
    const cells = [...table.querySelectorAll('td[data-label="Last used"]')].map((cell) => cell.textContent);
    expect(cells).toEqual(['Last used yesterdayfrom 198.51.100.4 · PhotoPrinter/2.1', 'Never used']);
  });
});
