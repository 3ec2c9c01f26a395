import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, makeClient } from '../../testing/mocks/db.ts';
import { renderApp, screen } from '../../testing/test-utils.tsx';

function detailsOf(): Record<string, string> {
  const list = screen.getAllByRole('definition')[0]!.closest('dl')!;
  const entries: Record<string, string> = {};
  for (const item of list.querySelectorAll('div')) {
    const term = item.querySelector('dt')?.textContent ?? '';
    entries[term] = item.querySelector('dd')?.textContent ?? '';
  }
  return entries;
}

describe('issue 19: a client’s page (/clients/:id)', () => {
  it('CE-13 is reached from the list by the client’s name and shows everything it is registered with', async () => {
    db.clients = [
      makeClient({
        id: 'lkc_detail',
        name: 'Weather Station',
        redirect_uris: ['https://weather.example/cb', 'http://localhost:5173/cb'],
        description: 'Forecasts for your garden.',
        client_uri: 'https://weather.example/',
        policy_uri: 'https://weather.example/privacy',
      }),
    ];
    const { user } = renderApp('/clients');
    const row = (await screen.findByRole('link', { name: 'Weather Station' })).closest('tr')!;
    expect(row.textContent).toContain('and 1 more');
    await user.click(within(row).getByRole('link', { name: 'Weather Station' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Weather Station' })).toBeTruthy();
    expect(window.location.pathname).toBe('/clients/lkc_detail');
    // The title is set in an effect, which may run just after the heading is painted.
    await waitFor(() => expect(document.title).toContain('Weather Station'));
    const details = detailsOf();
    expect(details['Client ID']).toContain('lkc_detail');
    expect(details['Redirect URLs']).toBe('https://weather.example/cbhttp://localhost:5173/cb');
    expect(details['Description']).toBe('Forecasts for your garden.');
    expect(details['Terms of service']).toBe('None');
    const homepage = screen.getByRole('link', { name: 'https://weather.example/' });
    expect(homepage.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: '← API clients' }).getAttribute('href')).toBe('/clients');
  });

  it('CE-13 Edit client saves every field with PATCH, closes with a toast, and the page shows the new values', async () => {
    db.clients = [makeClient({ id: 'lkc_edit', name: 'Before', redirect_uris: ['https://before.example/cb'] })];
    const { user } = renderApp('/clients/lkc_edit');
    await user.click(await screen.findByRole('button', { name: 'Edit client' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit client' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Client name'));
    const name = within(dialog).getByLabelText('Client name');
    await user.clear(name);
    await user.type(name, 'After');
    const uris = within(dialog).getByLabelText('Redirect URLs');
    await user.clear(uris);
    await user.type(uris, ' https://after.example/cb \n\nhttp://127.0.0.1:8080/cb\n');
    await user.type(within(dialog).getByLabelText('Description (optional)'), 'Now with details.');
    await user.type(within(dialog).getByLabelText('Homepage URL (optional)'), 'https://after.example/');
    await user.type(within(dialog).getByLabelText('Privacy policy URL (optional)'), 'https://after.example/privacy');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Saved the client “After”.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const patch = db.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe('/bff/api/clients/lkc_edit');
    expect(patch.headers.get('X-Latchkey-Portal')).toBe('1');
    expect(patch.body).toEqual({
      name: 'After',
      redirect_uris: ['https://after.example/cb', 'http://127.0.0.1:8080/cb'],
      post_logout_redirect_uri: null,
      description: 'Now with details.',
      client_uri: 'https://after.example/',
      policy_uri: 'https://after.example/privacy',
      tos_uri: null,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'After' })).toBeTruthy();
    expect(detailsOf()['Redirect URLs']).toBe('https://after.example/cbhttp://127.0.0.1:8080/cb');
  });

  it('CE-13 checks the fields before sending: eleven URLs, a bad one, a javascript: homepage; nothing is sent', async () => {
    db.clients = [makeClient({ id: 'lkc_bad' })];
    const { user } = renderApp('/clients/lkc_bad');
    await user.click(await screen.findByRole('button', { name: 'Edit client' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit client' });
    const uris = within(dialog).getByLabelText('Redirect URLs');
    await user.clear(uris);
    await user.type(uris, Array.from({ length: 11 }, (_, i) => `https://a${i}.example/cb`).join('\n'));
    await user.type(within(dialog).getByLabelText('Homepage URL (optional)'), 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByText('A client may register at most 10 redirect URLs.')).toBeTruthy();
    expect(within(dialog).getByText('The homepage URL must use https (or http for a loopback address).')).toBeTruthy();
    expect(document.activeElement).toBe(uris);
    await user.clear(uris);
    await user.type(uris, 'http://evil.example/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(within(dialog).getByText(/http:\/\/evil\.example\/cb: Use https/)).toBeTruthy();
    expect(db.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('CE-13 shows the server’s refusal under the field it names, and the dialog stays open', async () => {
    db.clients = [makeClient({ id: 'lkc_refused' })];
    const { user } = renderApp('/clients/lkc_refused');
    await user.click(await screen.findByRole('button', { name: 'Edit client' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit client' });
    const uris = within(dialog).getByLabelText('Redirect URLs');
    await user.clear(uris);
    await user.type(uris, 'https://app.example.invalid/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('The redirect URL must not point at example.invalid.')).toBeTruthy();
    expect(uris.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Edit client' })).toBeTruthy();
  });

  it('CE-11 markup in every field is shown as text', async () => {
    const evil = '<img src=x onerror="window.__xss=1">';
    db.clients = [
      makeClient({
        id: 'lkc_xss',
        name: evil,
        description: `<script>window.__xss=2</script>${evil}`,
        redirect_uris: ['https://x.example/cb?a=<b>'],
        client_uri: 'https://x.example/?q=<svg/onload=alert(1)>',
      }),
    ];
    renderApp('/clients/lkc_xss');
    expect(await screen.findByRole('heading', { level: 1, name: evil })).toBeTruthy();
    expect(document.querySelector('img, script:not([src]), svg[onload], b')).toBeNull();
    expect(detailsOf()['Description']).toBe(`<script>window.__xss=2</script>${evil}`);
    expect((window as { __xss?: number }).__xss).toBeUndefined();
  });

  it('a client that does not exist, or is another user’s, says so', async () => {
    db.clients = [];
    renderApp('/clients/lkc_nobody');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No such client');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('a revoked client offers neither Edit client nor Revoke', async () => {
    db.clients = [makeClient({ id: 'lkc_gone', name: 'Gone', status: 'revoked' })];
    renderApp('/clients/lkc_gone');
    expect(await screen.findByRole('heading', { level: 1, name: 'Gone' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit client' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Revoke/ })).toBeNull();
  });

  it('AX-02 AX-03 Revoke on the page names the client; once revoked, focus is on the page’s heading, never <body>', async () => {
    db.clients = [makeClient({ id: 'lkc_ww', name: 'Weather Widget' })];
    const { user } = renderApp('/clients/lkc_ww');
    const button = await screen.findByRole('button', { name: 'Revoke client Weather Widget' });
    expect(button.firstChild!.textContent).toBe('Revoke');
    await user.click(button);
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke this client?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(/This client is revoked: it signs nobody in/)).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Weather Widget' })),
    );
  });

  it('AX-12 a long redirect URL renders with break opportunities (<wbr>) after / . - _ ? & =, none inside a word', async () => {
    const long = 'https://weather-station.example.com/oauth2/callback?state_param=x&next=/home';
    db.clients = [
      makeClient({
        id: 'lkc_long',
        redirect_uris: [long],
        post_logout_redirect_uri: 'https://weather-station.example.com/signed_out',
        client_uri: 'https://weather-station.example.com/',
      }),
    ];
    renderApp('/clients/lkc_long');
    await screen.findByRole('heading', { level: 1 });
    const item = screen.getByText('Redirect URLs').closest('div')!.querySelector('li code')!;
    const pieces = item.innerHTML.replace(/<\/?span[^>]*>/g, '').split('<wbr>');
    expect(pieces).toEqual([
      'https://',
      'weather-',
      'station.',
      'example.',
      'com/',
      'oauth2/',
      'callback?',
      'state_',
      'param=',
      'x&amp;',
      'next=/',
      'home',
    ]);
    // Read aloud, searched or copied, it is the URL itself: <wbr> adds no character.
    expect(item.textContent).toBe(long);
    expect(detailsOf()['Redirect URLs']).toBe(long);
    expect(detailsOf()['Post-logout redirect URL']).toBe('https://weather-station.example.com/signed_out');
    expect(screen.getByText('Post-logout redirect URL').closest('div')!.querySelectorAll('wbr')).toHaveLength(6);
    const homepage = screen.getByRole('link', { name: 'https://weather-station.example.com/' });
    expect(homepage.querySelectorAll('wbr')).toHaveLength(4);
  });
});
