// Issue 19: a client can be edited. A developer who registered the wrong redirect URL fixes it
// on the client's page and the example app signs people in; what they tell people about the
// app shows on the consent page, as text whatever it contains.
import type { Page } from '@playwright/test';
import { createAccountFromSignIn, newAccount, signUpThroughPortal } from './support/accounts.ts';
import { startExampleAppFor } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, createClient, openPage } from './support/portal.ts';
import { reservedPort } from './support/system-env.ts';

/** API clients → the client's name → its page. */
async function openClient(page: Page, name: string): Promise<void> {
  await openPage(page, 'API clients');
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** Edit client → fill what is given → Save changes → the toast. */
async function editClient(page: Page, fields: Record<string, string>, savedName: string): Promise<void> {
  await page.getByRole('button', { name: 'Edit client' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit client' });
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label, { exact: true }).fill(value);
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && /^\/bff\/api\/clients\/[^/]+$/.test(new URL(r.url()).pathname),
    ),
    dialog.getByRole('button', { name: 'Save changes' }).click(),
  ]);
  expect(response.status()).toBe(200);
  await expect(page.getByText(`Saved the client “${savedName}”.`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

test('CE-14 a typo in the redirect URL is fixed on the client’s page, and the example app signs people in at once', async ({
  page,
  newContext,
  urls,
}) => {
  test.setTimeout(120_000);
  const developer = newAccount('Dee Veloper');
  const user = newAccount('Uma User');
  const clientName = 'Tide Tables';
  const port = await reservedPort();
  const callback = `http://localhost:${port}/callback`;

  await signUpThroughPortal(page, developer);
  const client = await createClient(page, clientName, `http://localhost:${port}/callbak`);
  await closeDialog(page);
  const app = await startExampleAppFor(urls, client, port);
  try {
    const browser = await (await newContext()).newPage();

    await test.step('with the typo, Latchkey stops at its own error page and sends nothing to the app', async () => {
      await browser.goto(app.url);
      await browser.getByRole('link', { name: 'Sign in with Latchkey' }).click();
      await expect(browser.getByText(/redirect_uri does not match any redirect URL registered/)).toBeVisible();
      expect(new URL(browser.url()).origin).toBe(urls.authUrl);
    });

    await test.step('the developer replaces the URL on the client’s page and adds a staging one', async () => {
      await openClient(page, clientName);
      await editClient(page, { 'Redirect URLs': `${callback}\nhttps://staging.tides.example/callback` }, clientName);
      const urlsShown = page.getByRole('definition').filter({ hasText: 'staging.tides.example' });
      await expect(urlsShown.getByRole('listitem')).toHaveText([callback, 'https://staging.tides.example/callback']);
    });

    await test.step('the same sign-in now works: consent, then the app calls the API', async () => {
      await browser.goto(app.url);
      await browser.getByRole('link', { name: 'Sign in with Latchkey' }).click();
      await createAccountFromSignIn(browser, user);
      await expect(browser.getByRole('heading', { name: `Authorize ${clientName}` })).toBeVisible();
      await browser.getByRole('button', { name: 'Allow' }).click();
      await expect(browser.getByText(`Signed in as ${user.name}`)).toBeVisible();
    });
  } finally {
    await app.stop();
  }
});

test('CE-09 CE-11 the consent page shows the homepage, description and policy links; markup everywhere stays text', async ({
  page,
  newContext,
  urls,
}) => {
  test.setTimeout(120_000);
  const developer = newAccount('Dee Veloper');
  const user = newAccount('Uma User');
  const port = await reservedPort();
  const xss = (n: number) => `<img src=x onerror="window.__xss=${n}">`;
  const name = `Tides ${xss(1)}`;

  await signUpThroughPortal(page, developer);
  const client = await createClient(page, 'Tide Tables', `http://localhost:${port}/callback`);
  await closeDialog(page);
  await openClient(page, 'Tide Tables');
  await editClient(
    page,
    {
      'Client name': name,
      'Description (optional)': `Tide times for every harbour. <script>window.__xss=2</script>${xss(3)}`,
      'Homepage URL (optional)': "https://tides.example/?ref='onmouseover='window.__xss=4",
      'Privacy policy URL (optional)': 'https://tides.example/privacy',
      'Terms of service URL (optional)': 'https://tides.example/terms',
    },
    name,
  );
  // The portal's page: the name as a heading, the description as text, no element injected.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(
    page.getByText('Tide times for every harbour. <script>window.__xss=2</script>', { exact: false }),
  ).toBeVisible();
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.locator('main img')).toHaveCount(0);

  const app = await startExampleAppFor(urls, client, port);
  try {
    const browser = await (await newContext()).newPage();
    await browser.goto(app.url);
    await browser.getByRole('link', { name: 'Sign in with Latchkey' }).click();
    await createAccountFromSignIn(browser, user);
    await expect(browser.getByRole('heading', { name: `Authorize ${name}` })).toBeVisible();
    await expect(browser.getByText(`by ${developer.name}`)).toBeVisible();
    await expect(browser.getByText(/Tide times for every harbour\. <script>/)).toBeVisible();
    const homepage = browser.getByRole('link', { name: 'tides.example', exact: true });
    await expect(homepage).toHaveAttribute('href', "https://tides.example/?ref='onmouseover='window.__xss=4");
    await expect(homepage).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(browser.getByRole('link', { name: 'privacy policy' })).toHaveAttribute(
      'href',
      'https://tides.example/privacy',
    );
    await expect(browser.getByRole('link', { name: 'terms of service' })).toHaveAttribute(
      'href',
      'https://tides.example/terms',
    );
    await expect(browser.getByText('This application runs on your own computer.')).toBeVisible();
    await homepage.hover();
    expect(await browser.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    await expect(browser.locator('main img, .card img')).toHaveCount(0);

    await test.step('Not you? Switch account: signed out, back at the same request, and another person can sign in', async () => {
      await browser.getByRole('button', { name: 'Not you? Switch account' }).click();
      const other = newAccount('Otto Other');
      await createAccountFromSignIn(browser, other);
      await expect(browser.getByRole('heading', { name: `Authorize ${name}` })).toBeVisible();
      await expect(browser.getByText(other.email)).toBeVisible();
      await browser.getByRole('button', { name: 'Allow' }).click();
      await expect(browser.getByText(`Signed in as ${other.name}`)).toBeVisible();
    });
  } finally {
    await app.stop();
  }
});
