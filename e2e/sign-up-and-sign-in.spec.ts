// Journey 1: a new developer creates an account from the portal, then signs in with it.
import { createAccountFromSignIn, expectPortal, newAccount, signInWith } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';

test('create an account from the portal, then sign in with it in a fresh browser', async ({
  page,
  newContext,
  urls,
}) => {
  const account = newAccount('Ada Lovelace');

  await test.step('signed out, the portal sends the browser to the sign-in page', async () => {
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.origin === urls.authUrl);
  });

  await test.step('Create account: Name, Email, Password lands on API clients, signed in', async () => {
    await createAccountFromSignIn(page, account);
    await expect(page).toHaveURL(`${urls.portalUrl}/clients`);
    await expectPortal(page);
    await expect(page.getByRole('heading', { level: 1, name: 'API clients' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(account.name);
  });

  await test.step('a fresh browser asks for the password and returns to the page asked for', async () => {
    const fresh = await (await newContext()).newPage();
    await fresh.goto('/tokens');
    await signInWith(fresh, { ...account, password: `${account.password} wrong` });
    await expect(fresh.getByRole('alert')).toBeVisible();
    await signInWith(fresh, account);
    await expect(fresh).toHaveURL(`${urls.portalUrl}/tokens`);
    await expectPortal(fresh);
    await expect(fresh.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  });
});
