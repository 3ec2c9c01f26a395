// AX-01: axe-core (WCAG 2.1 A and AA rules) finds nothing on any page a person sees: the
// authorization server's sign-in, sign-up and consent pages and every page of the portal, in
// the light and the dark colour scheme, at desktop (1280 px) and phone (390 px) width. One
// browser context per scheme: the pages are visited once and analysed at both widths, so the
// whole sweep costs two sign-ups, not sixteen. The Explorer, with its panels and dialogs open,
// is swept the same way by explorer-phone.spec.ts (AX-06).
import type { Page } from '@playwright/test';
import { createAccountFromSignIn, expectPortal, newAccount } from './support/accounts.ts';
import { axeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** AX-07: whether the page is drawn light or dark, from its body's background. */
async function drawnScheme(page: Page): Promise<'light' | 'dark'> {
  const rgb = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 128 ? 'light' : 'dark';
}

/** Every violation on the page as it is now, at each width, tagged with where it was seen. */
async function audit(page: Page, name: string, findings: string[]): Promise<void> {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    findings.push(...(await axeViolations(page, `${name} at ${viewport.width} px`)));
  }
  await page.setViewportSize(WIDTHS[0]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`AX-01 AX-07: no axe violations on sign-in, sign-up, consent and every portal page, ${scheme} scheme, 1280 and 390 px`, async ({
    page,
    urls,
  }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    const findings: string[] = [];
    const account = newAccount(`Axe ${scheme}`);

    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    expect(await drawnScheme(page), 'AX-07: the sign-in page follows the OS').toBe(scheme);
    await audit(page, 'sign-in', findings);

    await page.getByRole('link', { name: 'Create account' }).click();
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
    await audit(page, 'sign-up', findings);
    // The same page answering a submission with errors.
    await page.getByRole('button', { name: 'Create account' }).click();
    await audit(page, 'sign-up with errors', findings);

    await page.goto('/');
    await createAccountFromSignIn(page, account);
    await expectPortal(page);

    const portal = (path: string, data: object) =>
      page.request.post(path, { headers: { 'x-latchkey-portal': '1' }, data }).then(async (r) => {
        expect(r.status(), path).toBe(201);
        return (await r.json()) as { client?: { id: string; client_id: string; redirect_uri: string } };
      });
    const widget = await portal('/bff/api/clients', {
      name: 'Weather Widget',
      redirect_uris: [
        'https://weather.example/callback',
        'https://staging.weather.example/a/long/path/to/the/callback',
      ],
      description: 'Hourly forecasts for the places you save.',
      client_uri: 'https://weather.example/',
    });
    await portal('/bff/api/tokens', { name: 'laptop' });

    await page.goto('/clients');
    await expect(page.getByRole('row').filter({ hasText: 'Weather Widget' })).toBeVisible();
    expect(await drawnScheme(page), 'AX-07: the portal follows the OS').toBe(scheme);
    await audit(page, 'API clients', findings);

    await page.getByRole('link', { name: 'Weather Widget', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Weather Widget' })).toBeVisible();
    await audit(page, 'API client', findings);

    await page.goto('/tokens');
    await expect(page.getByRole('row').filter({ hasText: 'laptop' }).first()).toBeVisible();
    await audit(page, 'API tokens', findings);

    await page.getByRole('button', { name: 'Generate token' }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await audit(page, 'Generate token dialog', findings);
    await page.keyboard.press('Escape');

    await page.goto('/security-log');
    await expect(page.getByRole('heading', { level: 1, name: 'Security log' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Security log' }).getByText('Token created')).toBeVisible();
    await audit(page, 'Security log', findings);

    await page.goto('/no-such-page');
    await audit(page, 'not found', findings);

    const authorize = new URL('/oauth/authorize', urls.authUrl);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: widget.client!.client_id,
      redirect_uri: widget.client!.redirect_uri,
      state: 'axe',
    }).toString();
    await page.goto(authorize.href);
    await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
    expect(await drawnScheme(page), 'AX-07: the consent page follows the OS').toBe(scheme);
    await audit(page, 'consent', findings);

    expect(findings, 'AX-01: axe violations').toEqual([]);
  });
}
