// Issue 17: authorized applications. A user who signs in to the example app twice sees it once
// on the API tokens page; Revoke access ends the app's access at once, and its next sign-in asks
// for permission again.
import type { Page } from '@playwright/test';
import { createAccountFromSignIn, expectPortal } from './support/accounts.ts';
import { exampleAppJourney } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';
import { openPage, row } from './support/portal.ts';

test('AA-09 approve the example app twice, see it once, Revoke access: its next API call fails and its sign-in asks again', async ({
  page,
  newContext,
  urls,
}) => {
  await exampleAppJourney(page, urls, newContext, async ({ owner, user, clientName, appUrl, browser, signedIn }) => {
    await test.step('sign in to the app (Allow), then again with prompt=consent (Allow): two sign-ins', async () => {
      await browser.goto(appUrl);
      await browser.getByRole('link', { name: 'Sign in with Latchkey' }).click();
      await createAccountFromSignIn(browser, user);
      await expectConsent(browser, clientName);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await signedIn();
      await browser.goto(`${appUrl}/login?prompt=consent`);
      await expectConsent(browser, clientName);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await signedIn();
    });

    await test.step('the API tokens page lists the app once, with two active sign-ins', async () => {
      await browser.goto(`${urls.portalUrl}/tokens`);
      await expectPortal(browser);
      await openPage(browser, 'API tokens');
      const apps = browser.getByRole('table', { name: 'Authorized applications' });
      await expect(apps.getByRole('row')).toHaveCount(2); // the header and one application
      const entry = row(browser, clientName);
      await expect(entry).toContainText(`by ${owner.name}`);
      await expect(entry.getByRole('cell', { name: '2', exact: true })).toBeVisible();
      // Its tokens are not rows of the API tokens table.
      await expect(browser.getByRole('table', { name: 'API tokens' })).toHaveCount(0);
    });

    await test.step('Revoke access, confirmed: the app leaves the list', async () => {
      await row(browser, clientName)
        .getByRole('button', { name: `Revoke access for ${clientName}`, exact: true })
        .click();
      const confirm = browser.getByRole('alertdialog', { name: 'Revoke access?' });
      await expect(confirm).toContainText('ask for your permission again');
      const [response] = await Promise.all([
        browser.waitForResponse(
          (r) =>
            r.request().method() === 'POST' &&
            /^\/bff\/api\/applications\/[^/]+\/revoke$/.test(new URL(r.url()).pathname),
        ),
        confirm.getByRole('button', { name: 'Revoke access' }).click(),
      ]);
      expect(response.ok()).toBe(true);
      await expect(browser.getByText(`Revoked the access of “${clientName}”.`)).toBeVisible();
      await expect(browser.getByText('No authorized applications')).toBeVisible();
    });

    await test.step('the app can no longer call the API, and cannot refresh its way back', async () => {
      await browser.goto(appUrl);
      await expect(browser.getByText('The API refused the token (HTTP 401).')).toBeVisible();
      await browser.goto(`${appUrl}/refresh`);
      await expect(browser.getByText('Refresh failed: invalid_grant')).toBeVisible();
    });

    await test.step('its next sign-in shows the consent page again, though the browser is still signed in', async () => {
      await browser.goto(`${appUrl}/login`);
      await expectConsent(browser, clientName);
    });
  });
});

async function expectConsent(page: Page, clientName: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: `Authorize ${clientName}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
}
