// The Client secrets section of a client's page in the portal (SR-*), as a developer works it.
import { expect, type Page } from '@playwright/test';
import { shownOnce } from './portal.ts';

const SECRETS_PATH = /^\/bff\/api\/clients\/[^/]+\/secrets$/;
const DELETE_PATH = /^\/bff\/api\/clients\/[^/]+\/secrets\/[^/]+\/delete$/;

/** The rows of the Client secrets table (not its header). */
export function secretRows(page: Page) {
  return page
    .getByRole('table', { name: 'Client secrets' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

/** The client's live secrets are listed by these last four characters, in this order. */
export async function expectSecrets(page: Page, last4s: string[]): Promise<void> {
  const rows = secretRows(page);
  await expect(rows).toHaveCount(last4s.length);
  for (const [i, last4] of last4s.entries()) await expect(rows.nth(i)).toContainText(`Secret ending in …${last4}`);
}

/**
 * Generate a new secret → Generate secret (the one in use left working until deleted) → the new
 * secret, shown once → Done.
 */
export async function generateSecret(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Generate a new secret' }).click();
  const form = page.getByRole('dialog', { name: 'Generate a new secret' });
  await expect(form.getByLabel('When should the current secret stop working?')).toHaveValue('');
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && SECRETS_PATH.test(new URL(r.url()).pathname)),
    form.getByRole('button', { name: 'Generate secret' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const { client_secret: secret } = (await response.json()) as { client_secret: string };
  await expect(page.getByRole('dialog', { name: 'New secret generated' })).toBeVisible();
  await expect(shownOnce(page, 'Client secret')).toHaveValue(secret);
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  return secret;
}

/** Delete on the secret ending in `last4` (AX-02: "Delete secret ending in aBcD"), then the confirmation's Delete. */
export async function deleteSecret(page: Page, last4: string): Promise<void> {
  await secretRows(page)
    .filter({ hasText: `…${last4}` })
    .getByRole('button', { name: `Delete secret ending in ${last4}`, exact: true })
    .click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this secret?' });
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && DELETE_PATH.test(new URL(r.url()).pathname)),
    confirm.getByRole('button', { name: 'Delete', exact: true }).click(),
  ]);
  expect(response.status()).toBe(200);
  await expect(confirm).toHaveCount(0);
  await expect(page.getByText(`Deleted the secret ending in ${last4}.`)).toBeVisible();
}
