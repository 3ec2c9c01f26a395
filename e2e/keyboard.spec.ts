// Issue 37, AX-13: the API tokens page by keyboard alone (no clicks), with where focus is
// checked after every key: creating a token, and revoking tokens (AX-03: focus goes to the next
// row's Revoke, the previous one's from the last, then the page's heading; never <body>).
import type { Locator, Page } from '@playwright/test';
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { shownOnce } from './support/portal.ts';

/** Keyboard only: Tab (at most `limit` times) until `target` has focus. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The API tokens page, reached by its address (typing a URL is keyboard too). */
async function openTokens(page: Page): Promise<Locator> {
  await page.goto('/tokens');
  const heading = page.getByRole('heading', { level: 1, name: 'API tokens' });
  await expect(heading).toBeVisible();
  return heading;
}

test('AX-13 create a token by keyboard only (AX-12: on a 390 px phone the value shown once is whole)', async ({
  page,
}) => {
  await signUpThroughPortal(page, newAccount('Mary Jackson'));
  await openTokens(page);
  await expect(page.getByText('No API tokens yet')).toBeVisible();

  const generate = page.getByRole('button', { name: 'Generate token' }).first();
  await tabTo(page, generate);
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Generate token' });
  await expect(form.getByLabel('Token name')).toBeFocused();
  await page.keyboard.type('Keyboard only');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Description (optional)')).toBeFocused();
  await page.keyboard.type('Made without a mouse');
  await page.keyboard.press('Tab');
  const expiration = form.getByLabel('Expiration', { exact: true });
  await expect(expiration).toBeFocused();
  await expect(expiration).toHaveValue('365');

  const submit = form.getByRole('button', { name: 'Generate token' });
  await tabTo(page, submit, 10);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    page.keyboard.press('Enter'),
  ]);
  expect(response.status()).toBe(201);
  const { value } = (await response.json()) as { value: string };

  const shown = page.getByRole('dialog', { name: 'Token generated' });
  await expect(shownOnce(page, 'Token')).toHaveValue(value);
  // Focus is inside the dialog (on its warning), not left on the form's vanished button.
  await expect(shown.locator(':focus')).toHaveCount(1);

  await test.step('AX-12 at 390 px the field shows the whole value: nothing scrolled or cut off', async () => {
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    const field = shownOnce(page, 'Token');
    const fits = await field.evaluate((element) => ({
      height: element.scrollHeight <= element.clientHeight,
      width: element.scrollWidth <= element.clientWidth,
      inside: element.getBoundingClientRect().right <= window.innerWidth,
    }));
    expect(fits).toEqual({ height: true, width: true, inside: true });
    await page.setViewportSize(desktop);
  });

  await tabTo(page, shown.getByRole('button', { name: 'Done' }), 10);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(generate).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: 'Keyboard only' })).toContainText('Active');
});

test('AX-13 AX-03 revoke a token by keyboard only, focus checked after each step', async ({ page }) => {
  await signUpThroughPortal(page, newAccount('Christine Darden'));
  // Not about creating: three tokens straight from the BFF, as the portal asks for them.
  for (const name of ['alpha', 'bravo', 'charlie']) {
    const created = await page.request.post('/bff/api/tokens', {
      headers: { 'x-latchkey-portal': '1' },
      data: { name },
    });
    expect(created.status()).toBe(201);
  }
  const heading = await openTokens(page);
  const table = page.getByRole('table', { name: 'API tokens' });
  const revokeButton = (name: string) => table.getByRole('button', { name: `Revoke token ${name}`, exact: true });
  await expect(revokeButton('alpha')).toBeVisible();
  // The list's order is the server's: what "next" and "previous" mean is read from it.
  const names = (await table.locator('tbody .cell-title').allTextContents()).map((name) => name.trim());
  expect([...names].sort()).toEqual(['alpha', 'bravo', 'charlie']);
  const [first, middle, last] = names as [string, string, string];

  /** Enter on the row's Revoke → the confirmation, Cancel focused → Tab → Revoke → Enter. */
  async function revokeByKeyboard(name: string): Promise<void> {
    await expect(revokeButton(name)).toBeFocused();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this token?' });
    await expect(confirm).toContainText(name);
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(confirm.getByRole('button', { name: 'Revoke', exact: true })).toBeFocused();
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === 'POST' && /^\/bff\/api\/tokens\/[^/]+\/revoke$/.test(new URL(r.url()).pathname),
      ),
      page.keyboard.press('Enter'),
    ]);
    expect(response.ok()).toBe(true);
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: name }).getByText('Revoked', { exact: true })).toBeVisible();
  }

  await tabTo(page, revokeButton(middle));

  // Escape (and Cancel) change nothing and give focus back to the row's Revoke.
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Revoke this token?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(revokeButton(middle)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(revokeButton(middle)).toBeFocused();

  // The middle row: it stays, as Revoked and with no action; focus is on the next row's Revoke.
  await revokeByKeyboard(middle);
  await expect(revokeButton(last)).toBeFocused();
  // The last row: the previous active row's Revoke.
  await revokeByKeyboard(last);
  await expect(revokeButton(first)).toBeFocused();
  // None left to revoke: the page's heading, not <body>.
  await revokeByKeyboard(first);
  await expect(heading).toBeFocused();
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
});
