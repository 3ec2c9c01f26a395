// Journey 8: a picture of every page at desktop (1280×800) and phone (390×844) width, saved to
// test-results/screenshots/ (or docs/screenshots/, shown in the README, with UPDATE_SCREENSHOTS=1).
// Fixed names keep them comparable run to run.
import type { Page } from '@playwright/test';
import { createAccountFromSignIn, expectPortal, signInWith, type Account } from './support/accounts.ts';
import { runStarterQuery } from './support/explorer.ts';
import { expect, test } from './support/fixtures.ts';

// Every run saves them under test-results/; UPDATE_SCREENSHOTS=1 refreshes the committed copies.
const folder = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots';
const sizes = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

async function shoot(page: Page, name: string): Promise<void> {
  for (const [size, viewport] of Object.entries(sizes)) {
    await page.setViewportSize(viewport);
    await page.evaluate('document.fonts.ready');
    await page.screenshot({
      path: `${folder}/${name}-${size}.png`,
      fullPage: true,
      animations: 'disabled',
      caret: 'hide',
    });
  }
  await page.setViewportSize(sizes.desktop);
}

test('screenshots of sign-in, consent, API clients, a client, API tokens and Explorer at desktop and phone width', async ({
  page,
  urls,
}) => {
  test.setTimeout(120_000);
  // A fresh data folder per run, so a fixed email is free.
  const account: Account = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine 1843' };
  const portal = (path: string, data: object) =>
    page.request.post(path, { headers: { 'x-latchkey-portal': '1' }, data }).then((r) => {
      expect(r.status(), path).toBe(201);
      return r.json() as Promise<{ client?: { client_id: string; redirect_uri: string } }>;
    });

  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await shoot(page, 'sign-in');

  await createAccountFromSignIn(page, account);
  // Against a system that already has the account (a retry, an external system): sign in.
  const exists = page.getByText('An account with this email already exists');
  await expect(page.getByRole('button', { name: 'Sign out' }).or(exists)).toBeVisible();
  if (await exists.isVisible()) {
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await signInWith(page, account);
  }
  await expectPortal(page);
  const widget = await portal('/bff/api/clients', {
    name: 'Weather Widget',
    redirect_uris: ['https://weather.example/callback', 'https://staging.weather.example/callback'],
    description: 'Hourly forecasts for the places you save, on your phone and your desk.',
    client_uri: 'https://weather.example/',
    policy_uri: 'https://weather.example/privacy',
    tos_uri: 'https://weather.example/terms',
  });
  await portal('/bff/api/clients', { name: 'Acme Dashboard', redirect_uri: 'http://localhost:8080/callback' });
  await portal('/bff/api/tokens', { name: 'CI deploy', expires_in_days: 30 });
  await portal('/bff/api/tokens', { name: 'Laptop' });

  await page.goto('/clients');
  await expect(page.getByRole('row').filter({ hasText: 'Weather Widget' }).first()).toBeVisible();
  await shoot(page, 'api-clients');

  await page.getByRole('link', { name: 'Weather Widget', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Weather Widget' })).toBeVisible();
  await shoot(page, 'api-client');

  await page.goto('/tokens');
  await expect(page.getByRole('row').filter({ hasText: 'CI deploy' }).first()).toBeVisible();
  await shoot(page, 'api-tokens');

  await runStarterQuery(page, account.name);
  await shoot(page, 'explorer');

  const authorize = new URL('/oauth/authorize', urls.authUrl);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: widget.client!.client_id,
    redirect_uri: widget.client!.redirect_uri,
    state: 'screenshot',
  }).toString();
  await page.goto(authorize.href);
  await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
  await shoot(page, 'consent');
});
