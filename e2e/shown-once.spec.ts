// Issue 37, AX-10 and AX-11: a token shown once is not thrown away uncopied by a stray Escape,
// and a session that ends while Generate token is open does not throw away what was typed.
import type { Locator, Page } from '@playwright/test';
import {
  createAccountFromSignIn,
  expectSignInPage,
  newAccount,
  signInWith,
  signUpThroughPortal,
} from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';

// The Copy button writes to the clipboard, which headless Chromium allows only when granted.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Keyboard only: Tab (at most `limit` times) until `target` has focus. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('AX-10 keyboard only: Escape on a new token before copying asks; Go back; copy; Escape closes', async ({
  page,
}) => {
  await signUpThroughPortal(page, newAccount('Dorothy Vaughan'));
  await page.goto('/tokens');
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();

  const generate = page.getByRole('button', { name: 'Generate token' }).first();
  await tabTo(page, generate);
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Generate token' });
  await expect(form.getByLabel('Token name')).toBeFocused();
  await page.keyboard.type('Keyboard bot');
  await page.keyboard.press('Enter');

  const shown = page.getByRole('dialog', { name: 'Token generated' });
  await expect(shown).toBeVisible();
  const value = await shown.getByLabel('Token', { exact: true }).inputValue();
  expect(value).toMatch(/^lkp_/);
  // Focus starts at the warning, above the value.
  await expect(shown.locator('.focus-target')).toBeFocused();

  await page.keyboard.press('Escape');
  const question = page.getByRole('alertdialog', { name: 'You have not copied the token. Close anyway?' });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Go back' })).toBeFocused();
  await expect(question.getByRole('button', { name: 'Close anyway' })).toBeVisible();

  await page.keyboard.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(shown).toBeVisible();
  await expect(shown.getByLabel('Token', { exact: true })).toHaveValue(value);
  await expect(shown.locator('.focus-target')).toBeFocused();

  const copy = shown.getByRole('button', { name: 'Copy token' });
  await tabTo(page, copy, 10);
  await page.keyboard.press('Enter');
  await expect(copy).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(generate).toBeFocused();
});

test('AX-11 the session ends while Generate token is open: after signing in again the dialog is back with the name filled', async ({
  page,
  context,
  urls,
}) => {
  const account = newAccount('Katherine Coleman');
  await signUpThroughPortal(page, account);
  await page.goto('/tokens');
  await expect(page.getByText('No API tokens yet')).toBeVisible();

  await page.getByRole('button', { name: 'Generate token' }).first().click();
  const form = page.getByRole('dialog', { name: 'Generate token' });
  await form.getByLabel('Token name').fill('Nightly backup');
  await form.getByLabel('Description (optional)').fill('Runs at 02:00');
  await form.getByLabel('Expiration', { exact: true }).selectOption({ label: '30 days' });

  // The portal session ends (the BFF's cookie is gone); the authorization server's stays.
  const cookieName = urls.portalUrl.startsWith('https://') ? '__Host-lk_portal_sid' : 'lk_portal_sid';
  await context.clearCookies({ name: cookieName });
  const [refused] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    form.getByRole('button', { name: 'Generate token' }).click(),
  ]);
  expect(refused.status()).toBe(401);

  // Through sign-in (at once when the authorization server still knows this browser) and back.
  const back = page.getByRole('dialog', { name: 'Generate token' });
  const signIn = page.getByLabel('Password', { exact: true });
  await expect(back.or(signIn)).toBeVisible({ timeout: 20_000 });
  if (await signIn.isVisible()) {
    await expectSignInPage(page);
    await signInWith(page, account);
  }
  await expect(back).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/tokens');
  await expect(back).toContainText('Your session ended, so nothing was created.');
  await expect(back).toContainText('Your entries are restored; submit again.');
  await expect(back.getByLabel('Token name')).toHaveValue('Nightly backup');
  await expect(back.getByLabel('Description (optional)')).toHaveValue('Runs at 02:00');
  await expect(back.getByLabel('Expiration', { exact: true })).toHaveValue('30');
  await expect(back.getByLabel('Token name')).toBeFocused();
  // Nothing was created, and the draft is gone once restored.
  await expect(page.getByText('No API tokens yet')).toBeVisible();
  expect(await page.evaluate(() => window.sessionStorage.getItem('latchkey.dialog-draft'))).toBeNull();

  const [created] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    back.getByRole('button', { name: 'Generate token' }).click(),
  ]);
  expect(created.status()).toBe(201);
  await expect(page.getByRole('dialog', { name: 'Token generated' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Nightly backup' })).toHaveCount(1);
});

test('AX-11 the next person at that browser: the session ends while Generate token is open, someone else signs in, and sees no dialog and nothing typed', async ({
  page,
  context,
}) => {
  const first = newAccount('Mary Jackson');
  const next = newAccount('Dorothy Vaughan');
  const typed = `Mary private ${Date.now().toString(36)}`;
  await signUpThroughPortal(page, first);
  await page.goto('/tokens');
  await expect(page.getByText('No API tokens yet')).toBeVisible();
  await page.getByRole('button', { name: 'Generate token' }).first().click();
  const form = page.getByRole('dialog', { name: 'Generate token' });
  await form.getByLabel('Token name').fill(typed);

  // Mary walks away; every session ends (the portal's and the authorization server's).
  await context.clearCookies();
  const [refused] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    form.getByRole('button', { name: 'Generate token' }).click(),
  ]);
  expect(refused.status()).toBe(401);

  // Dorothy, at the sign-in page Mary's tab was sent to, creates her account and lands on /tokens.
  await createAccountFromSignIn(page, next);
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/tokens');
  await expect(page.locator('header.app-header')).toContainText(next.name);
  await expect(page.getByText('No API tokens yet')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(typed);
  expect(await page.evaluate(() => window.sessionStorage.getItem('latchkey.dialog-draft'))).toBeNull();
});
