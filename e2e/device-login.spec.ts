// Journey: a command-line tool signs in without a browser of its own (RFC 8628 device flow).
// examples/cli-login (openid-client 6) prints a code, the user enters it on /device in Chromium,
// signs in and approves, and the tool prints the name it got from /graphql (DV-27, DV-28).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createAccountFromSignIn, newAccount, signUpThroughPortal } from './support/accounts.ts';
import { createDeviceClient, newConfigDir, runCliLogin } from './support/cli-login.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog } from './support/portal.ts';

// Each test waits on the tool's 5 s polls; they share nothing, so they run on both workers.
test.describe.configure({ mode: 'parallel' });

const codeLine = /^Open (\S+) and enter the code ([B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4})$/m;
const completeLine = /^or open (\S+)$/m;

test('DV-27 DV-28 a command-line tool signs in with the device flow: the code typed on /device in lowercase without its hyphen, sign-in, Approve; it keeps only its refresh token (0600) and calls /graphql', async ({
  page,
  newContext,
  urls,
}) => {
  test.setTimeout(120_000);
  const owner = newAccount('Olive Owner');
  const user = newAccount('Uma User');
  const clientName = 'Terminal Tool';
  await signUpThroughPortal(page, owner);
  const { clientId } = await createDeviceClient(page, clientName);
  await closeDialog(page);
  const configDir = newConfigDir();
  const tokenFile = join(configDir, 'refresh-token');

  const login = runCliLogin('login', urls, clientId, configDir);
  const [, verificationUri, userCode] = await login.printed(codeLine);
  expect(verificationUri).toBe(`${urls.authUrl}/device`);

  const browser = await (await newContext()).newPage();
  await test.step('the user types the code in lowercase without the hyphen, signs up, and approves', async () => {
    await browser.goto(verificationUri!);
    await expect(browser.getByRole('heading', { level: 1, name: 'Connect a device' })).toBeVisible();
    await browser.getByLabel('Code').fill(userCode!.replace('-', '').toLowerCase());
    await browser.getByRole('button', { name: 'Continue' }).click();
    await createAccountFromSignIn(browser, user);
    await expectDeviceConsent(browser, clientName, userCode!);
    await browser.getByRole('button', { name: 'Approve' }).click();
    await expect(browser.getByRole('heading', { level: 1, name: 'You can return to your device' })).toBeVisible();
  });

  await test.step('the tool prints the name from /graphql and exits 0', async () => {
    const result = await login.exited;
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Signed in as ${user.name}\n`);
    expect(result.code).toBe(0);
  });

  await test.step('it kept one refresh token, mode 0600, and no access token', async () => {
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const stored = readFileSync(tokenFile, 'utf8');
    expect(stored).toMatch(/^lkr_[\w-]+$/);
    expect(stored).not.toContain('lko_');
  });

  await test.step('whoami refreshes, keeps the rotated refresh token and prints the name', async () => {
    const before = readFileSync(tokenFile, 'utf8');
    const result = await runCliLogin('whoami', urls, clientId, configDir).exited;
    expect(result).toMatchObject({ code: 0, stdout: `${user.name}\n`, stderr: '' });
    const after = readFileSync(tokenFile, 'utf8');
    expect(after).toMatch(/^lkr_[\w-]+$/);
    expect(after).not.toBe(before);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  });

  await test.step('logout revokes and forgets it; whoami then says so and fails', async () => {
    const stored = readFileSync(tokenFile, 'utf8');
    expect(await runCliLogin('logout', urls, clientId, configDir).exited).toMatchObject({ code: 0, stderr: '' });
    expect(() => statSync(tokenFile)).toThrow();
    const refresh = await fetch(`${urls.authUrl}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: stored, client_id: clientId }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const whoami = await runCliLogin('whoami', urls, clientId, configDir).exited;
    expect(whoami).toMatchObject({ code: 1, stdout: '', stderr: 'Not signed in: run login first.\n' });
  });
});

test('DV-28 at 390 px: verification_uri_complete pre-fills the code, nothing on /device or its consent page is wider than the screen, and Deny makes the tool fail with access denied', async ({
  page,
  browser,
  leaks,
  urls,
}) => {
  test.setTimeout(120_000);
  const owner = newAccount('Olive Owner');
  const user = newAccount('Uma User');
  const clientName = 'Terminal Tool';
  await signUpThroughPortal(page, owner);
  const { clientId } = await createDeviceClient(page, clientName);
  await closeDialog(page);
  const configDir = newConfigDir();

  const login = runCliLogin('login', urls, clientId, configDir);
  const [, userCode] = (await login.printed(codeLine)).slice(1);
  const [, completeUri] = await login.printed(completeLine);
  expect(new URL(completeUri!).searchParams.get('user_code')).toBe(userCode!.replace('-', ''));

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  leaks.watch(phone);
  try {
    const tab = await phone.newPage();
    await test.step('the complete URI opens /device with the code filled in; it still asks to continue', async () => {
      await tab.goto(completeUri!);
      await expect(tab.getByRole('heading', { level: 1, name: 'Connect a device' })).toBeVisible();
      await expect(tab.getByLabel('Code')).toHaveValue(new RegExp(`^${userCode!.replace('-', '-?')}$`));
      expect(await overflow(tab, 390)).toEqual([]);
      await tab.getByRole('button', { name: 'Continue' }).click();
    });

    await test.step('sign-up, then the consent page fits the screen; Deny', async () => {
      await createAccountFromSignIn(tab, user);
      await expectDeviceConsent(tab, clientName, userCode!);
      expect(await overflow(tab, 390)).toEqual([]);
      await tab.getByRole('button', { name: 'Deny' }).click();
      await expect(tab.getByRole('heading', { level: 1, name: 'Denied' })).toBeVisible();
      expect(await overflow(tab, 390)).toEqual([]);
    });

    await test.step('the tool says access was denied, exits 1 and keeps nothing', async () => {
      const result = await login.exited;
      expect(result.stderr).toBe('Sign-in failed: access was denied on the device page.\n');
      expect(result.stdout).not.toContain('Signed in');
      expect(result.code).toBe(1);
      expect(() => statSync(join(configDir, 'refresh-token'))).toThrow();
    });
  } finally {
    await phone.close();
  }
});

/** DV-18: the device consent page names the app, shows the code and the warning, and asks. */
async function expectDeviceConsent(page: Page, clientName: string, userCode: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: `Authorize ${clientName}` })).toBeVisible();
  await expect(page.getByText('Only continue if you started this yourself')).toBeVisible();
  await expect(page.getByText(userCode, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deny' })).toBeVisible();
}

/**
 * Every element that reaches past the sides of a screen `width` wide, and the page if it scrolls
 * sideways (a fixed width: a mobile browser zooms out to fit a page wider than its screen).
 */
function overflow(page: Page, width: number): Promise<string[]> {
  return page.evaluate(`(() => {
    const width = ${width};
    const found = [];
    if (document.documentElement.scrollWidth > width) found.push('page scrolls to ' + document.documentElement.scrollWidth);
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.left < -0.5 || box.right > width + 0.5)) {
        found.push(element.tagName.toLowerCase() + '.' + element.className + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
      }
    }
    return found;
  })()`);
}
