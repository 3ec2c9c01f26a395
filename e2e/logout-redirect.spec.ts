// Issue 26, HD-08: /oauth/logout is not an open redirect. Sign-up is open, so anyone can register
// a client whose post-logout URL is their own site; before, a link or an auto-submitted form on
// that site sent a signed-in visitor's browser through Latchkey, signed out, to wherever it liked.
// Here the attacker's page is served from 127.0.0.1, another site than the servers' localhost.
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { reservedPort } from './support/system-env.ts';
import { expect, test } from './support/fixtures.ts';

interface AttackerSite {
  origin: string;
  /** The attacker's registered post-logout URL: reaching it means the redirect worked. */
  landing: string;
  close(): Promise<void>;
}

/** A page per attack: an auto-submitted cross-site form, and a plain link. */
async function startAttackerSite(logoutFields: () => Record<string, string>, authUrl: string): Promise<AttackerSite> {
  const port = await reservedPort();
  const origin = `http://127.0.0.1:${port}`;
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const server: Server = createServer((req, res) => {
    const fields = logoutFields();
    const query = new URLSearchParams(fields).toString();
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
      .join('');
    const body =
      req.url === '/form'
        ? `<form id="f" method="post" action="${authUrl}/oauth/logout">${inputs}</form><script>document.getElementById('f').submit()</script>`
        : req.url === '/link'
          ? `<a href="${escape(`${authUrl}/oauth/logout?${query}`)}">Read the article</a>`
          : '<h1>Attacker landing page</h1>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>x</title>${body}`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin,
    landing: `${origin}/landed`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The attacker's client, registered through the portal's own API as anyone who signed up can. */
async function registerAttackerClient(page: Page, landing: string): Promise<string> {
  const created = await page.evaluate(async (postLogout) => {
    const response = await fetch('/bff/api/clients', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-latchkey-portal': '1' },
      body: JSON.stringify({
        name: 'Free Article Reader',
        redirect_uri: postLogout.replace('/landed', '/cb'),
        post_logout_redirect_uri: postLogout,
      }),
    });
    return { status: response.status, body: (await response.json()) as { client: { id: string } } };
  }, landing);
  expect(created.status).toBe(201);
  return created.body.client.id;
}

/** Still signed in at the authorization server: its home page names the account. */
async function expectStillSignedIn(page: Page, authUrl: string, email: string): Promise<void> {
  await page.goto(`${authUrl}/`);
  await expect(page.getByText(email)).toBeVisible();
}

test.describe('HD-08 sign-out is not an open redirect', () => {
  let site: AttackerSite;
  let clientId = '';
  test.beforeEach(async ({ urls }) => {
    site = await startAttackerSite(
      () => ({ client_id: clientId, post_logout_redirect_uri: site.landing }),
      urls.authUrl,
    );
  });
  test.afterEach(async () => {
    await site.close();
  });

  test('HD-08 a cross-site auto-submitted form lands on Latchkey’s confirmation page, not the attacker’s site, and signs nobody out', async ({
    page,
    urls,
  }) => {
    const account = newAccount('Katherine Johnson');
    await signUpThroughPortal(page, account);
    clientId = await registerAttackerClient(page, site.landing);

    await page.goto(`${site.origin}/form`);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign out of Latchkey?' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(urls.authUrl);
    await expect(page.getByText('Free Article Reader')).toBeVisible();
    await expectStillSignedIn(page, urls.authUrl, account.email);
  });

  test('HD-08 a link: the confirmation page; only its Sign out button signs out and goes back to the registered URL', async ({
    page,
    urls,
  }) => {
    const account = newAccount('Dorothy Vaughan');
    await signUpThroughPortal(page, account);
    clientId = await registerAttackerClient(page, site.landing);

    await page.goto(`${site.origin}/link`);
    await page.getByRole('link', { name: 'Read the article' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign out of Latchkey?' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(urls.authUrl);

    // The user's own click is what the page is for: then, and only then, signed out and sent back.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Attacker landing page' })).toBeVisible();
    expect(page.url()).toBe(site.landing);
    await page.goto(`${urls.authUrl}/`);
    await expect(page.getByText(account.email)).toHaveCount(0);
  });
});
