// examples/browser-app, served as a developer would serve it, and the public client it signs in as.
import { expect, type Page } from '@playwright/test';
import { startExampleServer, type ExampleApp } from './example-app.ts';
import { openPage, shownOnce } from './portal.ts';
import type { SystemUrls } from './system-env.ts';

/** The single-page app on `http://localhost:<port>`, signing in as `clientId` against this system. */
export function startBrowserApp(urls: SystemUrls, clientId: string, port: number): Promise<ExampleApp> {
  return startExampleServer('examples/browser-app/serve.ts', port, {
    ISSUER: urls.authUrl,
    API_URL: urls.apiUrl,
    CLIENT_ID: clientId,
  });
}

/**
 * API clients → New client → Client name, Redirect URL, "Public client (no secret)" → Create
 * client. PC-01: the answer has no secret and the dialog shows none; the dialog stays open.
 */
export async function createPublicClient(page: Page, name: string, redirectUri: string): Promise<{ clientId: string }> {
  await openPage(page, 'API clients');
  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Client name').fill(name);
  await dialog.getByLabel('Redirect URL', { exact: true }).fill(redirectUri);
  await dialog.getByLabel('Public client (no secret)').check();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/clients'),
    dialog.getByRole('button', { name: 'Create client' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { client: { client_id: string; public: boolean }; client_secret?: string };
  expect(body.client.public).toBe(true);
  expect(body.client_secret).toBeUndefined();
  await expect(shownOnce(page, 'Client ID')).toHaveValue(body.client.client_id);
  await expect(shownOnce(page, 'Client secret')).toHaveCount(0);
  return { clientId: body.client.client_id };
}
