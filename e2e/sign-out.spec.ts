// Journey 5: Sign out signs out (BF-LO-03, issue 14 SO-07): the portal session and
// the authorization server's own sign-in both end, so nothing the person at this browser does
// next (Back, reload, the portal's URL, a third-party app's sign-in link) gets in without the
// password; the cookie is gone, and the old session cookie replayed gets 401 everywhere.
import type { Page } from '@playwright/test';
import {
  createAccountFromSignIn,
  expectPortal,
  expectSignInPage,
  newAccount,
  signInWith,
  signUpThroughPortal,
} from './support/accounts.ts';
import { runStarterQuery } from './support/explorer.ts';
import { registerExampleApp } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';

/** Sign out from the portal's header: the POST, then the end-session round trip to /signed-out. */
async function signOut(page: Page): Promise<void> {
  const [logout] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/logout'),
    page.getByRole('button', { name: 'Sign out' }).click(),
  ]);
  expect(logout.status()).toBe(204);
  await expect(page.getByRole('heading', { level: 1, name: 'You have signed out' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/signed-out');
}

test('BF-LO-03 sign out and be signed out everywhere; the old session cookie replayed gets 401', async ({
  page,
  context,
  urls,
  playwright,
}) => {
  const account = newAccount('Mary Jackson');
  await signUpThroughPortal(page, account);
  const session = (await context.cookies(urls.portalUrl)).find((c) => /lk_portal_sid$/.test(c.name));
  expect(session, 'the portal session cookie').toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe('Strict');

  await signOut(page);

  await test.step('the cookies of both servers are gone', async () => {
    await expect(page.getByRole('navigation').getByRole('link', { name: 'API clients' })).toHaveCount(0);
    expect((await context.cookies(urls.portalUrl)).map((c) => c.name)).not.toContain(session!.name);
    expect((await context.cookies(urls.authUrl)).map((c) => c.name)).not.toContain('lk_auth_sid');
  });

  await test.step('the old session cookie replayed gets 401 on every BFF endpoint', async () => {
    const replay = await playwright.request.newContext({ baseURL: urls.portalUrl });
    const cookie = { cookie: `${session!.name}=${session!.value}` };
    const write = { ...cookie, 'x-latchkey-portal': '1' };
    const answers = [
      await replay.get('/bff/session', { headers: cookie }),
      await replay.get('/bff/api/me', { headers: cookie }),
      await replay.get('/bff/api/tokens', { headers: cookie }),
      await replay.post('/bff/graphql', { headers: write, data: { query: '{ profile { name } }' } }),
    ];
    for (const answer of answers) {
      expect(answer.status(), answer.url()).toBe(401);
      expect(await answer.json()).toMatchObject({ error: 'unauthenticated' });
    }
    await replay.dispose();
  });

  await test.step('Sign in again asks for the password and starts a new session; the old cookie stays dead', async () => {
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await signInWith(page, account);
    await expectPortal(page);
    const fresh = (await context.cookies(urls.portalUrl)).find((c) => c.name === session!.name);
    expect(fresh?.value).toBeDefined();
    expect(fresh!.value).not.toBe(session!.value);
    const replay = await playwright.request.newContext({ baseURL: urls.portalUrl });
    const answer = await replay.get('/bff/session', { headers: { cookie: `${session!.name}=${session!.value}` } });
    expect(answer.status()).toBe(401);
    await replay.dispose();
  });
});

test('SO-07 sign out, then Back: the password page, not the portal', async ({ page }) => {
  const account = newAccount('Dorothy Vaughan');
  await signUpThroughPortal(page, account);
  await page.getByRole('navigation').first().getByRole('link', { name: 'API tokens', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  await signOut(page);
  await page.goBack();
  await expectSignInPage(page);
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
});

test('SO-07 sign out, then reload: still signed out, and the portal asks for the password', async ({ page }) => {
  const account = newAccount('Christine Darden');
  await signUpThroughPortal(page, account);
  await signOut(page);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'You have signed out' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  expect((await page.request.get('/bff/session')).status()).toBe(401);
});

test('SO-07 sign out, then the portal’s URL: the password page', async ({ page }) => {
  const account = newAccount('Annie Easley');
  await signUpThroughPortal(page, account);
  await signOut(page);
  await page.goto('/');
  await expectSignInPage(page);
  await signInWith(page, account);
  await expectPortal(page);
});

test('SO-07 sign out, then a third-party app’s sign-in link: the password page', async ({ page, urls }) => {
  test.setTimeout(120_000);
  const account = newAccount('Gladys West');
  await signUpThroughPortal(page, account);
  const app = await registerExampleApp(page, urls, 'Star Charts');
  try {
    // Signed in to the app through Latchkey, without a password: the server's session did it.
    await page.goto(`${app.url}/login`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByText(`Signed in as ${account.name}`)).toBeVisible();

    await page.goto('/');
    await expectPortal(page);
    await signOut(page);

    await page.goto(`${app.url}/login`);
    await expectSignInPage(page);
    await expect(page.getByText('Star Charts').first()).toBeVisible();
  } finally {
    await app.stop();
  }
});

/** Everything script can read of this origin's Web Storage, as one string. */
async function webStorage(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
}

test('SO-08 sign in as A, use the Explorer, sign out, sign in as B: none of A’s queries, tabs or history are there', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const a = newAccount('Ada Explorer');
  const b = newAccount('Bob Nextuser');
  const marker = `private-query-of-ada-${Date.now().toString(36)}`;
  await signUpThroughPortal(page, a);

  await test.step('A writes and runs a query of their own', async () => {
    await runStarterQuery(page, a.name);
    const editor = page.locator('.graphiql-query-editor');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.type(`# ${marker}`);
    await page.keyboard.press('Enter');
    await expect(editor).toContainText(marker);
    await page.getByRole('button', { name: /execute query/i }).click();
    await expect(page.locator('.graphiql-response')).toContainText(a.name);
    // The test can see what it looks for: A's query is kept in the browser while A is signed in.
    await expect.poll(() => webStorage(page)).toContain(marker);
  });

  await test.step('A signs out: nothing of A’s Explorer is left in the browser', async () => {
    await signOut(page);
    expect(await webStorage(page)).not.toContain(marker);
    // Nor anywhere else script can reach: IndexedDB, Cache Storage, cookies without HttpOnly.
    expect(
      // A string: the browser's globals (indexedDB, caches) are not in the test's Node types.
      await page.evaluate(`(async () => ({
        indexedDb: (await indexedDB.databases()).map((d) => d.name),
        caches: await caches.keys(),
        cookies: document.cookie,
      }))()`),
    ).toEqual({ indexedDb: [], caches: [], cookies: '' });
  });

  await test.step('B signs in at the same browser and opens the Explorer: the starter query, no tabs or history of A', async () => {
    await page.getByRole('link', { name: 'Sign in again' }).click();
    await createAccountFromSignIn(page, b);
    await expectPortal(page);
    await runStarterQuery(page, b.name);
    await expect(page.locator('.graphiql-query-editor')).not.toContainText(marker);
    await expect(page.locator('.graphiql-tabs')).not.toContainText(marker);
    await page.getByRole('button', { name: /show history/i }).click();
    await expect(page.locator('.graphiql-history')).toBeVisible();
    await expect(page.locator('.graphiql-history')).not.toContainText(marker);
    expect(await webStorage(page)).not.toContain(marker);
  });
});
