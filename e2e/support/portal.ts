// The portal's pages as a user works them (by their visible labels), returning what the server
// answered where a journey needs it (the value shown once).
import { expect, type Page } from '@playwright/test';

export interface CreatedClient {
  id: string;
  clientId: string;
  clientSecret: string;
}

export interface GeneratedToken {
  id: string;
  value: string;
}

export async function openPage(page: Page, label: 'API clients' | 'API tokens' | 'Explorer'): Promise<void> {
  await page.getByRole('navigation').first().getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
}

/** API clients → the client's name: its page. */
export async function openClient(page: Page, name: string): Promise<void> {
  await openPage(page, 'API clients');
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** A read-only field of the dialog that shows a value once (RevealedSecret), by its label. */
export function shownOnce(page: Page, label: 'Client ID' | 'Client secret' | 'Token') {
  return page.getByRole('dialog').getByLabel(label, { exact: true });
}

/** API clients → New client → Client name, Redirect URL → Create client; the dialog stays open. */
export async function createClient(page: Page, name: string, redirectUri: string): Promise<CreatedClient> {
  await openPage(page, 'API clients');
  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Client name').fill(name);
  await dialog.getByLabel('Redirect URL', { exact: true }).fill(redirectUri);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/clients'),
    dialog.getByRole('button', { name: 'Create client' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { client: { id: string; client_id: string }; client_secret: string };
  await expect(shownOnce(page, 'Client ID')).toHaveValue(body.client.client_id);
  await expect(shownOnce(page, 'Client secret')).toHaveValue(body.client_secret);
  return { id: body.client.id, clientId: body.client.client_id, clientSecret: body.client_secret };
}

/** API tokens → Generate token → Token name (Expiration left at its default) → Generate token. */
export async function generateToken(page: Page, name: string): Promise<GeneratedToken> {
  await openPage(page, 'API tokens');
  await page.getByRole('button', { name: 'Generate token' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Token name').fill(name);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    dialog.getByRole('button', { name: 'Generate token' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { token: { id: string }; value: string };
  await expect(shownOnce(page, 'Token')).toHaveValue(body.value);
  return { id: body.token.id, value: body.value };
}

/** Closes the dialog that shows a value once. */
export async function closeDialog(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The list row that names this client or token. */
export function row(page: Page, name: string) {
  return page.getByRole('row').filter({ hasText: name });
}

/**
 * Revoke on the row (named for it, AX-02: "Revoke token Deploy bot"), then the confirmation
 * dialog's Revoke; the row then reads Revoked.
 */
export async function revoke(page: Page, name: string, path: 'clients' | 'tokens'): Promise<void> {
  const noun = path === 'tokens' ? 'token' : 'client';
  await row(page, name)
    .getByRole('button', { name: `Revoke ${noun} ${name}`, exact: true })
    .click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toBeVisible();
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) =>
        r.request().method() === 'POST' &&
        new RegExp(`^/bff/api/${path}/[^/]+/revoke$`).test(new URL(r.url()).pathname),
    ),
    confirm.getByRole('button', { name: 'Revoke', exact: true }).click(),
  ]);
  expect(response.ok()).toBe(true);
  await expect(confirm).toHaveCount(0);
  await expect(row(page, name).getByText('Revoked', { exact: true })).toBeVisible();
}
