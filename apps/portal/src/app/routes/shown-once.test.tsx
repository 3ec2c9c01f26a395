import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, makeClient, makeSecret, makeToken } from '../../testing/mocks/db.ts';
import { NEW_CLIENT_SECRET, ROLLED_TOKEN_VALUE } from '../../testing/mocks/handlers.ts';
import { renderApp, screen } from '../../testing/test-utils.tsx';

// AX-10: a dialog that shows a secret once asks before Escape or × throws it away uncopied.

const TOKEN_VALUE = 'lkp_TOKENvalueTOKENvalueTOKENva12WxYz';
const TOKEN_QUESTION = 'You have not copied the token. Close anyway?';
const SECRET_QUESTION = 'You have not copied the secret. Close anyway?';

type User = ReturnType<typeof renderApp>['user'];

/** Generate token → a name → Generate token: the dialog that shows the token once. */
async function generateToken(user: User): Promise<HTMLElement> {
  await screen.findByText('No API tokens yet');
  await user.click(screen.getByRole('button', { name: 'Generate token' }));
  const form = screen.getByRole('dialog', { name: 'Generate token' });
  await user.type(within(form).getByLabelText('Token name'), 'Deploy bot');
  await user.click(within(form).getByRole('button', { name: 'Generate token' }));
  return screen.findByRole('dialog', { name: 'Token generated' });
}

/** What a browser does on Escape in a modal <dialog> (happy-dom does not): a cancelable `cancel`. */
function pressEscape(dialog: HTMLElement): void {
  dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
}

describe('AX-10 shown-once dialogs ask before closing with the value uncopied', () => {
  it('AX-10 Escape before copying asks; Go back keeps the token shown and focus where it was; × then Close anyway closes', async () => {
    const { user } = renderApp('/tokens');
    const shown = await generateToken(user);
    const before = document.activeElement;

    pressEscape(shown);
    const question = await screen.findByRole('alertdialog', { name: TOKEN_QUESTION });
    expect(question.textContent).toContain('once closed, nobody can show it to you again');
    expect(document.activeElement).toBe(within(question).getByRole('button', { name: 'Go back' }));
    expect(within(question).getByRole('button', { name: 'Close anyway' })).toBeTruthy();

    await user.click(within(question).getByRole('button', { name: 'Go back' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(shown).getByLabelText<HTMLInputElement>('Token').value).toBe(TOKEN_VALUE);
    expect(document.activeElement).toBe(before);

    // Escape inside the question means Go back, and does not close the dialog behind it.
    pressEscape(shown);
    const again = await screen.findByRole('alertdialog', { name: TOKEN_QUESTION });
    pressEscape(again);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Token generated' })).toBe(shown);

    await user.click(within(shown).getByRole('button', { name: 'Close' }));
    const third = await screen.findByRole('alertdialog', { name: TOKEN_QUESTION });
    expect(document.activeElement).toBe(within(third).getByRole('button', { name: 'Go back' }));
    await user.click(within(third).getByRole('button', { name: 'Close anyway' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.body.textContent).not.toContain(TOKEN_VALUE);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Generate token' }));
  });

  it('AX-10 once Copy was used, Escape closes without asking', async () => {
    const { user } = renderApp('/tokens');
    const shown = await generateToken(user);
    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN_VALUE);
    pressEscape(shown);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Generate token' }));
  });

  it('AX-10 a copy made by selecting the value (Ctrl+C) counts too: × closes without asking', async () => {
    const { user } = renderApp('/tokens');
    const shown = await generateToken(user);
    const field = within(shown).getByLabelText<HTMLInputElement>('Token');
    field.focus();
    field.setSelectionRange(0, field.value.length);
    field.dispatchEvent(new Event('copy', { bubbles: true }));
    await user.click(within(shown).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('AX-10 Done never asks: it is the explicit choice to close', async () => {
    const { user } = renderApp('/tokens');
    const shown = await generateToken(user);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('AX-10 Client created asks about the secret; copying the client ID alone is not enough; a public client (no secret) never asks', async () => {
    const { user } = renderApp('/clients');
    await screen.findByText('No API clients yet');
    await user.click(screen.getByRole('button', { name: 'New client' }));
    let form = screen.getByRole('dialog', { name: 'New client' });
    await user.type(within(form).getByLabelText('Client name'), 'My App');
    await user.type(within(form).getByLabelText('Redirect URL'), 'https://app.example.com/callback');
    await user.click(within(form).getByRole('button', { name: 'Create client' }));
    let shown = await screen.findByRole('dialog', { name: 'Client created' });

    await user.click(within(shown).getByRole('button', { name: 'Copy client ID' }));
    pressEscape(shown);
    const question = await screen.findByRole('alertdialog', { name: SECRET_QUESTION });
    await user.click(within(question).getByRole('button', { name: 'Go back' }));
    await user.click(within(shown).getByRole('button', { name: 'Copy client secret' }));
    pressEscape(shown);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(await screen.findByRole('button', { name: 'New client' }));
    form = screen.getByRole('dialog', { name: 'New client' });
    await user.type(within(form).getByLabelText('Client name'), 'CLI');
    await user.click(within(form).getByLabelText('Public client (no secret)'));
    await user.type(within(form).getByLabelText('Redirect URL'), 'http://127.0.0.1/callback');
    await user.click(within(form).getByRole('button', { name: 'Create client' }));
    shown = await screen.findByRole('dialog', { name: 'Client created' });
    pressEscape(shown);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('AX-10 New secret generated asks the same question about the secret before closing uncopied', async () => {
    db.clients = [makeClient({ id: 'lkc_gen', name: 'Rotating App' })];
    db.clientSecrets = { lkc_gen: [makeSecret({ id: 'cs_first', last4: 'Ab12' })] };
    const { user } = renderApp('/clients/lkc_gen');
    await screen.findByRole('table', { name: 'Client secrets' });
    await user.click(screen.getByRole('button', { name: 'Generate a new secret' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Generate a new secret' })).getByRole('button', {
        name: 'Generate secret',
      }),
    );
    const secret = await screen.findByRole('dialog', { name: 'New secret generated' });
    await user.click(within(secret).getByRole('button', { name: 'Close' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: SECRET_QUESTION })).getByRole('button', {
        name: 'Close anyway',
      }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain(NEW_CLIENT_SECRET);
  });

  it('AX-10 Token rolled asks before closing uncopied', async () => {
    db.tokens = [makeToken({ id: 'tok_ci', name: 'CI deploys', last4: 'a1B2' })];
    const { user } = renderApp('/tokens');
    const row = (await screen.findByText('CI deploys', { selector: '.cell-title' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /^Roll/ }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Roll token' })).getByRole('button', { name: 'Roll token' }),
    );
    const rolled = await screen.findByRole('dialog', { name: 'Token rolled' });
    pressEscape(rolled);
    await user.click(
      within(await screen.findByRole('alertdialog', { name: TOKEN_QUESTION })).getByRole('button', { name: 'Go back' }),
    );
    expect(within(rolled).getByLabelText<HTMLInputElement>('Token').value).toBe(ROLLED_TOKEN_VALUE);
    await user.click(within(rolled).getByRole('button', { name: 'Copy token' }));
    pressEscape(rolled);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
