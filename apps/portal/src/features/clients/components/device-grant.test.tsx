// DV-25: the portal's opt-in to the device authorization grant (RFC 8628), in New client and
// Edit client, and what a client's page says about it.
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, makeClient } from '../../../testing/mocks/db.ts';
import { renderApp, screen } from '../../../testing/test-utils.tsx';

const LABEL = 'Allow sign-in on devices without a browser (device flow)';

/** The client page's "Device sign-in" entry. */
async function deviceSignIn(): Promise<string> {
  const term = await screen.findByText('Device sign-in', { selector: 'dt' });
  return term.closest('div')!.querySelector('dd')!.textContent ?? '';
}

describe('DV-25 the device flow checkbox', () => {
  it('DV-25 New client: the checkbox, off by default with a hint, sends device_grant: true when ticked', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    await user.click(screen.getByRole('button', { name: 'New client' }));
    const dialog = screen.getByRole('dialog', { name: 'New client' });
    const box = within(dialog).getByLabelText<HTMLInputElement>(LABEL);
    expect(box.checked).toBe(false);
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toContain('shows a short code');
    await user.type(within(dialog).getByLabelText('Client name'), 'Terminal App');
    await user.click(within(dialog).getByLabelText('Public client (no secret)'));
    await user.click(box);
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'http://127.0.0.1/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));

    expect(await screen.findByRole('dialog', { name: 'Client created' })).toBeTruthy();
    expect(db.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Terminal App',
      redirect_uri: 'http://127.0.0.1/callback',
      public: true,
      device_grant: true,
    });
    expect(db.clients[0]!.device_grant).toBe(true);
  });

  it('DV-25 New client left unticked sends no device_grant (the server’s default: off)', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    await user.click(screen.getByRole('button', { name: 'New client' }));
    const dialog = screen.getByRole('dialog', { name: 'New client' });
    await user.type(within(dialog).getByLabelText('Client name'), 'Web App');
    await user.type(within(dialog).getByLabelText('Redirect URL'), 'https://web.example/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Create client' }));
    expect(await screen.findByRole('dialog', { name: 'Client created' })).toBeTruthy();
    expect(db.requests.find((r) => r.method === 'POST')!.body).not.toHaveProperty('device_grant');
  });

  it('DV-25 the client page says whether it is on; Edit client shows it ticked as saved and sends the change', async () => {
    db.clients = [makeClient({ id: 'lkc_tv', name: 'TV App', public: true, device_grant: false })];
    const { user } = renderApp('/clients/lkc_tv');
    expect(await deviceSignIn()).toBe('Not allowed');

    await user.click(await screen.findByRole('button', { name: 'Edit client' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit client' });
    const box = within(dialog).getByLabelText<HTMLInputElement>(LABEL);
    expect(box.checked).toBe(false);
    await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved the client “TV App”.')).toBeTruthy();
    expect(db.requests.filter((r) => r.method === 'PATCH').at(-1)!.body).toMatchObject({ device_grant: true });
    await screen.findByText(/^Allowed/, { selector: 'dd' });

    // Opted in, the box starts ticked; unticking it sends device_grant: false.
    await user.click(screen.getByRole('button', { name: 'Edit client' }));
    dialog = screen.getByRole('dialog', { name: 'Edit client' });
    const again = within(dialog).getByLabelText<HTMLInputElement>(LABEL);
    expect(again.checked).toBe(true);
    await user.click(again);
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Not allowed', { selector: 'dd' });
    expect(db.requests.filter((r) => r.method === 'PATCH').at(-1)!.body).toMatchObject({ device_grant: false });
  });

  it('DV-25 Edit client leaves device_grant out when the box was not changed', async () => {
    db.clients = [makeClient({ id: 'lkc_same', name: 'Same App', device_grant: true })];
    const { user } = renderApp('/clients/lkc_same');
    expect(await deviceSignIn()).toMatch(/^Allowed/);
    await user.click(await screen.findByRole('button', { name: 'Edit client' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit client' });
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved the client “Same App”.')).toBeTruthy();
    expect(db.requests.find((r) => r.method === 'PATCH')!.body).not.toHaveProperty('device_grant');
  });
});
