// Issue 36's journey: make a token and revoke it on the API tokens page, then read both events,
// and the sign-in before them, on the Security log page (AU-08), filter it by type, and read it
// on a phone.
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, generateToken, revoke } from './support/portal.ts';
import { expectLogEvents, logRows, openSecurityLog, overflowing } from './support/security-log.ts';

test('AU-08 create and revoke a token, then see both events and the sign-in on the Security log page; filter by Token revoked; at 390 px nothing is wider than the screen', async ({
  page,
  browser,
  context,
  leaks,
  urls,
}) => {
  const account = newAccount('Dorothy Vaughan');
  await signUpThroughPortal(page, account);
  const name = 'Deploy bot';
  const token = await generateToken(page, name);
  await closeDialog(page);
  await revoke(page, name, 'tokens');

  await openSecurityLog(page);
  await expect(page).toHaveURL(/\/security-log$/);
  await expectLogEvents(page, ['Token revoked', 'Token created', 'Sign-in']);
  const [revoked, created, signIn] = await logRows(page);
  for (const row of [revoked!, created!]) {
    expect(row.by).toBe('You');
    // AU-04: the browser's address and, in short, its User-Agent (Playwright's headless Chromium).
    expect(row.from).toMatch(/\d.* Chrome on \w+/);
    // The token, by the start of its id (AU-03: never its value).
    expect(row.target).toContain(`Token ${token.id.slice(0, 10)}`);
    expect(row.when).toMatch(/now|second|minute/);
  }
  expect(signIn!.target).toBe('None');
  expect(await page.getByRole('table', { name: 'Security log' }).textContent()).not.toContain(token.value);

  await page.getByLabel('Event type').selectOption({ label: 'Token revoked' });
  await expect(page).toHaveURL(/\/security-log\?type=token\.revoked$/);
  await expectLogEvents(page, ['Token revoked']);

  // A phone, signed in as the same user: the page as cards, nothing wider than the screen.
  const phone = await browser.newContext({
    baseURL: urls.portalUrl,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    storageState: await context.storageState(),
  });
  leaks.watch(phone);
  try {
    const tab = await phone.newPage();
    await tab.goto('/tokens');
    await openSecurityLog(tab);
    await expectLogEvents(tab, ['Token revoked', 'Token created', 'Sign-in']);
    expect(await overflowing(tab, 390)).toEqual([]);
    await tab.getByLabel('Event type').selectOption({ label: 'Failed sign-in' });
    await expect(tab.getByText('Nothing here yet.')).toBeVisible();
    expect(await overflowing(tab, 390)).toEqual([]);
  } finally {
    await phone.close();
  }
});
