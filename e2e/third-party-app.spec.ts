// Journey 6: a third-party application (examples/third-party-app, openid-client 6) uses a
// client registered through the portal. It also proves CJ-04: the redirect that follows the
// consent form's POST reaches the client's registered origin in Chromium.
import type { Page } from '@playwright/test';
import { expectSignInPage, signInWith, createAccountFromSignIn } from './support/accounts.ts';
import { authPagesShown } from './support/auth-pages.ts';
import { exampleAppJourney } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';
import { revoke } from './support/portal.ts';

test('CJ-04 a third-party app signs a user in through consent; prompt, Deny and client revocation behave', async ({
  page,
  newContext,
  urls,
}) => {
  await exampleAppJourney(page, urls, newContext, async ({ owner, user, clientName, appUrl, browser, signedIn }) => {
    const atCallback = () => expect(browser).toHaveURL((url) => url.origin === appUrl && url.pathname === '/callback');

    await test.step('first visit: sign-in page, Create account, consent names the client and its owner, Allow', async () => {
      await browser.goto(appUrl);
      await browser.getByRole('link', { name: 'Sign in with Latchkey' }).click();
      await expectSignInPage(browser);
      await expect(browser.getByText(clientName).first()).toBeVisible();
      await createAccountFromSignIn(browser, user);
      await expectConsent(browser, clientName, owner.name);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await atCallback();
      await signedIn();
    });

    await test.step('second visit goes straight through: no sign-in, no consent', async () => {
      const pages = authPagesShown(browser, urls.authUrl);
      await browser.goto(`${appUrl}/login`);
      await atCallback();
      await signedIn();
      expect(pages()).toEqual([]);
    });

    await test.step('prompt=consent shows the consent page again', async () => {
      await browser.goto(`${appUrl}/login?prompt=consent`);
      await expectConsent(browser, clientName, owner.name);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await atCallback();
      await signedIn();
    });

    await test.step('prompt=login asks for the password again', async () => {
      await browser.goto(`${appUrl}/login?prompt=login`);
      await signInWith(browser, user);
      await atCallback();
      await signedIn();
    });

    await test.step('Deny returns access_denied to the app', async () => {
      await browser.goto(`${appUrl}/login?prompt=consent`);
      await expectConsent(browser, clientName, owner.name);
      await browser.getByRole('button', { name: 'Deny' }).click();
      await atCallback();
      await expect(browser).toHaveURL(/[?&]error=access_denied(&|$)/);
      await expect(browser.getByText('Sign-in failed: access_denied')).toBeVisible();
    });

    await test.step('while the client is active, the app refreshes its token and keeps working', async () => {
      await browser.goto(`${appUrl}/refresh`);
      await expect(browser.getByText('Token refreshed.')).toBeVisible();
      await browser.goto(appUrl);
      await signedIn();
    });

    await test.step('revoking the client in the portal stops its token at once and its refresh with invalid_client', async () => {
      await revoke(page, clientName, 'clients');
      await browser.goto(appUrl);
      await expect(browser.getByText('The API refused the token (HTTP 401).')).toBeVisible();
      await browser.goto(`${appUrl}/refresh`);
      await expect(browser.getByText('Refresh failed: invalid_client')).toBeVisible();
    });
  });
});

async function expectConsent(page: Page, clientName: string, ownerName: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: `Authorize ${clientName}` })).toBeVisible();
  await expect(page.getByText(`by ${ownerName}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deny' })).toBeVisible();
}
