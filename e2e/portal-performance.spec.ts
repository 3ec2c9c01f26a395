// Issue 20: a portal that shows itself before its JavaScript has run, and an Explorer that shows
// signs of life while its large editor chunk downloads.
import type { Route } from '@playwright/test';
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { openPage } from './support/portal.ts';

/** The Explorer's editor chunk (GraphiQL; it loads Monaco in turn), by Vite's chunk name. */
const EDITOR_CHUNK = /\/assets\/explorer-[\w-]+\.js$/;

test('PF-03 with JavaScript disabled, / shows the header, the navigation and a page skeleton', async ({
  browser,
  urls,
}) => {
  const context = await browser.newContext({ baseURL: urls.portalUrl, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('link', { name: 'Latchkey Developer portal' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Portal' });
    await expect(nav.getByRole('link')).toHaveText(['API clients', 'API tokens', 'Explorer', 'Security log']);
    await expect(page.getByRole('status')).toContainText('Loading the developer portal…');
    await expect(page.locator('.skeleton__bar').first()).toBeVisible();
  } finally {
    await context.close();
  }
});

test('PF-04 the Explorer shows its loading state before the editor, and pointing at its link starts the download', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpThroughPortal(page, newAccount('Petra Patient'));
  await openPage(page, 'API tokens');

  await test.step('pointing at the Explorer link requests the editor chunk before any click', async () => {
    const held: Route[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(EDITOR_CHUNK, async (route) => {
      held.push(route);
      await released;
      await route.continue();
    });
    const requested = page.waitForRequest(EDITOR_CHUNK);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Explorer' }).hover();
    await requested;
    expect(page.url()).toMatch(/\/tokens$/);

    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Explorer' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Explorer' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading the Explorer…' })).toBeVisible();
    await expect(page.locator('.graphiql-container')).toHaveCount(0);
    expect(held.length).toBeGreaterThan(0);

    release();
    await expect(page.getByRole('button', { name: /execute query/i })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Loading the Explorer…')).toHaveCount(0);
  });
});

test('PF-01 in Chromium, the tokens page’s scripts and styles arrive compressed', async ({ page }) => {
  await signUpThroughPortal(page, newAccount('Cora Compressed'));
  await openPage(page, 'API tokens');
  // Routing turns Playwright's HTTP cache off: the reload fetches every file again.
  await page.route('**/assets/**', (route) => route.continue());
  const seen: Array<Promise<[string, number, string]>> = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (!/^\/assets\/.+\.(js|css)$/.test(path)) return;
    const encoding = response.headers()['content-encoding'] ?? 'identity';
    seen.push(response.body().then((body) => [path, body.length, encoding]));
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  // The build leaves files under 1 KB as they are; every larger one comes compressed.
  const large = (await Promise.all(seen)).filter(([, bytes]) => bytes > 1024);
  expect(large.length).toBeGreaterThan(0);
  for (const [path, , encoding] of large)
    expect([path, encoding]).toEqual([path, expect.stringMatching(/^(br|gzip)$/)]);
});
