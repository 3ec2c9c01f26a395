// AX-08, AX-09: the authorization server's own pages by keyboard alone. Sign-up answers a wrong
// form with every field's error at once and focus on the first wrong field; on sign-in, sign-up
// and consent, at desktop (1280 px) and phone (390 px) width, Tab visits the controls in the
// order they are seen: top to bottom, and left to right within a row.
import type { Page } from '@playwright/test';
import { createAccountFromSignIn, expectPortal, expectSignInPage, newAccount } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

interface Stop {
  /** Tag and visible name, e.g. `button Allow`. */
  name: string;
  /** The box of its first line, in page coordinates. */
  top: number;
  bottom: number;
  left: number;
}

/** The focused element, its page coordinates, or undefined when focus is back on the page. */
function focused(page: Page): Promise<Stop | undefined> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body || element.id === 'tab-walk-start') return undefined;
    // Where it begins: a link wrapped over two lines starts at the end of the first, while its
    // bounding box would start at the left edge of the page.
    const box = element.getClientRects()[0] ?? element.getBoundingClientRect();
    const label = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText ?? '';
    const field = element.id ? `#${element.id}` : '';
    return {
      name: `${element.tagName.toLowerCase()}${field} ${label.trim().replace(/\s+/g, ' ')}`.trim(),
      top: box.top + window.scrollY,
      bottom: box.bottom + window.scrollY,
      left: box.left + window.scrollX,
    };
  });
}

/** Tab from the top of a freshly loaded page until focus leaves the page or comes round again. */
async function tabStops(page: Page): Promise<Stop[]> {
  const stops: Stop[] = [];
  // Start before the first control (an autofocused field would start the walk in the middle): a
  // sentinel at the top of the page that Tab itself never stops on (tabindex -1).
  await page.evaluate(() => {
    const start = document.createElement('div');
    start.tabIndex = -1;
    start.id = 'tab-walk-start';
    document.body.prepend(start);
    start.focus();
  });
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    if (!stop || stops.some((seen) => seen.name === stop.name)) break;
    stops.push(stop);
  }
  return stops;
}

/** Seen first: higher on the page; on the same row (boxes overlapping vertically), further left. */
function seenBefore(a: Stop, b: Stop): number {
  const sameRow = a.top < b.bottom && b.top < a.bottom;
  return sameRow ? a.left - b.left : a.top - b.top;
}

async function expectTabOrderIsVisualOrder(page: Page, what: string, reload: () => Promise<void>): Promise<void> {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    await reload();
    const stops = await tabStops(page);
    expect(stops.length, `${what} at ${viewport.width} px has controls`).toBeGreaterThan(2);
    const visual = [...stops].sort(seenBefore);
    expect(
      stops.map((stop) => stop.name),
      `AX-09 ${what} at ${viewport.width} px: Tab order = visual order`,
    ).toEqual(visual.map((stop) => stop.name));
  }
  await page.setViewportSize(WIDTHS[0]);
}

test('AX-08 a wrong sign-up submitted by keyboard shows every error at once and focuses the first invalid field', async ({
  page,
}) => {
  await page.goto('/');
  await expectSignInPage(page);
  await page.getByRole('link', { name: 'Create account' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
  const name = page.getByLabel('Name', { exact: true });
  const email = page.getByLabel('Email', { exact: true });
  const password = page.getByLabel('Password', { exact: true });
  await expect(name).toBeFocused();

  await test.step('empty form, Enter: all three errors, focus on Name', async () => {
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('Please correct the highlighted fields and try again.');
    await expect(page.getByText('Enter a name of 1 to 100 characters.')).toBeVisible();
    await expect(page.getByText('Enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Use a password of 12 to 1024 characters.')).toBeVisible();
    for (const field of [name, email, password]) await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription('Enter a name of 1 to 100 characters.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-name');
  });

  await test.step('a name but a wrong email and password: the name is kept, focus on Email', async () => {
    await page.keyboard.type('Ada Keyboard');
    await page.keyboard.press('Tab');
    await expect(email).toBeFocused();
    await page.keyboard.type('ada@');
    await page.keyboard.press('Tab');
    await expect(password).toBeFocused();
    await page.keyboard.type('short');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Use a password of 12 to 1024 characters.')).toBeVisible();
    await expect(page.getByText('Enter a name of 1 to 100 characters.')).toHaveCount(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-email');
    await expect(name).toHaveValue('Ada Keyboard');
    await expect(email).toHaveValue('ada@');
    await expect(password).toHaveValue('');
  });

  await test.step('"Sign in instead" is a link', async () => {
    await expect(page.getByRole('button', { name: /sign in/i })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  });
});

test('AX-09 on sign-in, sign-up and consent the Tab order is the visual order at 1280 and 390 px', async ({
  page,
  urls,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await expectSignInPage(page);
  const signInUrl = page.url();
  await expectTabOrderIsVisualOrder(page, 'sign-in', async () => {
    await page.goto(signInUrl);
  });
  await page.getByRole('link', { name: 'Create account' }).click();
  const signUpUrl = page.url();
  await expectTabOrderIsVisualOrder(page, 'sign-up', async () => {
    await page.goto(signUpUrl);
  });

  await page.goto('/');
  await createAccountFromSignIn(page, newAccount('Tab Order'));
  await expectPortal(page);
  const created = await page.request.post('/bff/api/clients', {
    headers: { 'x-latchkey-portal': '1' },
    data: {
      name: 'Weather Widget',
      redirect_uris: ['https://weather.example/callback'],
      description: 'Hourly forecasts for the places you save.',
      client_uri: 'https://weather.example/',
      policy_uri: 'https://weather.example/privacy',
      tos_uri: 'https://weather.example/terms',
    },
  });
  expect(created.status()).toBe(201);
  const { client } = (await created.json()) as { client: { client_id: string; redirect_uri: string } };
  const authorize = new URL('/oauth/authorize', urls.authUrl);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    state: 'tab-order',
  }).toString();
  await expectTabOrderIsVisualOrder(page, 'consent', async () => {
    await page.goto(authorize.href);
    await expect(page.getByRole('button', { name: 'Allow' })).toBeVisible();
  });
});
