// The API tokens page's Generate token (with a chosen expiration), Roll and Edit, as a user
// works them, and a call to the API with a token's value: what issue 35's journeys need beyond
// portal.ts.
import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import type { SystemUrls } from './system-env.ts';
import { closeDialog, openPage, row, shownOnce } from './portal.ts';

export interface TokenAnswer {
  id: string;
  value: string;
  last4: string;
  /** ISO 8601, as the server answered. */
  expiresAt: string;
}

function answerOf(body: { token: { id: string; last4: string; expires_at: string }; value: string }): TokenAnswer {
  return { id: body.token.id, value: body.value, last4: body.token.last4, expiresAt: body.token.expires_at };
}

/** API tokens → Generate token → Token name, Expiration → Generate token → the value shown once → Done. */
export async function generateTokenLasting(
  page: Page,
  name: string,
  expiration: '7 days' | '30 days' | '90 days' | '1 year',
): Promise<TokenAnswer> {
  await openPage(page, 'API tokens');
  await page.getByRole('button', { name: 'Generate token' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Token name').fill(name);
  await dialog.getByLabel('Expiration', { exact: true }).selectOption({ label: expiration });
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    dialog.getByRole('button', { name: 'Generate token' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const created = answerOf(await response.json());
  await expect(shownOnce(page, 'Token')).toHaveValue(created.value);
  await closeDialog(page);
  return created;
}

/** The row of the token ending in `last4` (a roll leaves two rows of one name). */
export function tokenRow(page: Page, last4: string) {
  return page.getByRole('row').filter({ hasText: `…${last4}` });
}

/**
 * TR-12: Roll on the row named `name` → "Old value keeps working" → Roll token; returns the new
 * value as the shown-once field holds it (and checks it is the server's), the dialog still open.
 */
export async function rollToken(
  page: Page,
  name: string,
  overlap: 'No, stop it now' | '1 hour' | '24 hours' | '7 days',
): Promise<TokenAnswer> {
  await row(page, name)
    .getByRole('button', { name: `Roll token ${name}`, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Roll token' });
  await dialog.getByRole('radiogroup', { name: 'Old value keeps working' }).getByLabel(overlap).check();
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && /^\/bff\/api\/tokens\/[^/]+\/roll$/.test(new URL(r.url()).pathname),
    ),
    dialog.getByRole('button', { name: 'Roll token' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const rolled = answerOf(await response.json());
  const field = shownOnce(page, 'Token');
  await expect(field).toHaveValue(rolled.value);
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Copy token' })).toBeVisible();
  return { ...rolled, value: await field.inputValue() };
}

/** `{ profile { name } }` at the API with `Authorization: Bearer <value>`. */
export function callApiWith(request: APIRequestContext, urls: SystemUrls, value: string): Promise<APIResponse> {
  return request.post(`${urls.apiUrl}/graphql`, {
    headers: { Authorization: `Bearer ${value}` },
    data: { query: '{ profile { name } }' },
  });
}
