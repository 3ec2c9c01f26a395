// SC-05 in a browser: the consent page lists what a third-party app asks for, one sentence per
// scope, and remembers the approval per scope. The example app sends no `scope` (the documented
// flow), so this journey adds it to the app's authorization request.
import { authPagesShown } from './support/auth-pages.ts';
import { createAccountFromSignIn, expectSignInPage } from './support/accounts.ts';
import { exampleAppJourney } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';

test('SC-05 an app asking for profile email shows both sentences; once approved, the same request goes straight back', async ({
  page,
  newContext,
  urls,
}) => {
  await exampleAppJourney(page, urls, newContext, async ({ clientName, user, appUrl, browser, signedIn }) => {
    const atCallback = () => expect(browser).toHaveURL((url) => url.origin === appUrl && url.pathname === '/callback');
    let scope = 'profile';
    // Its /login redirects to /oauth/authorize; the redirect gets `scope` added (Playwright does
    // not route a redirect's next request, so the app's answer is rewritten instead).
    await browser.route(
      (url) => url.origin === appUrl && url.pathname === '/login',
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        const location = new URL(response.headers().location!);
        location.searchParams.set('scope', scope);
        await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
      },
    );
    const permissions = browser.locator('.permissions li');
    // What people read (SC-01's registry sentences), spelled out as they see them.
    const profile = 'See your user id and name';
    const email = 'See your email address';

    await test.step('asking for profile: one sentence; Allow', async () => {
      await browser.goto(`${appUrl}/login`);
      await expectSignInPage(browser);
      await createAccountFromSignIn(browser, user);
      await expect(browser.getByRole('heading', { level: 1, name: `Authorize ${clientName}` })).toBeVisible();
      await expect(permissions).toHaveText([profile]);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await atCallback();
      await signedIn();
    });

    await test.step('asking for profile email: both sentences, email marked new; Allow', async () => {
      scope = 'profile email';
      await browser.goto(`${appUrl}/login`);
      await expect(permissions).toHaveText([profile, `New: ${email}`]);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await atCallback();
      await signedIn();
    });

    await test.step('asking for profile email again goes straight back to the app: no page on the server', async () => {
      const pages = authPagesShown(browser, urls.authUrl);
      await browser.goto(`${appUrl}/login`);
      await atCallback();
      await signedIn();
      expect(pages()).toEqual([]);
    });

    await test.step('prompt=consent asks again, both sentences, nothing new', async () => {
      await browser.goto(`${appUrl}/login?prompt=consent`);
      await expect(permissions).toHaveText([profile, email]);
    });
  });
});
