// Journey 2: register an OAuth client and read its secret once (TS-04).
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, createClient, row } from './support/portal.ts';

test('TS-04 register a client and read its secret once; a reload no longer shows it', async ({ page, leaks }) => {
  await signUpThroughPortal(page, newAccount('Grace Hopper'));
  const name = 'Acme Dashboard';
  const redirectUri = 'https://acme.example/callback';

  const created = await createClient(page, name, redirectUri);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('You will not see this secret again', { exact: false })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /copy client id/i })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /copy client secret/i })).toBeVisible();
  await closeDialog(page);

  const listed = row(page, name);
  await expect(listed).toContainText(created.clientId);
  await expect(listed).toContainText(redirectUri);
  await expect(listed).toContainText('Active');

  await page.reload();
  await expect(row(page, name)).toContainText(created.clientId);
  expect(await page.content()).not.toContain(created.clientSecret);
  await expect(page.locator(`input[value="${created.clientSecret}"]`)).toHaveCount(0);

  // The secret reached the browser once: in the response that created the client.
  const carrying = await leaks.responsesContaining(created.clientSecret);
  expect(carrying.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
    'POST /bff/api/clients 201',
  ]);
  expect(carrying[0]!.text).toMatch(/^cache-control: .*no-store/im);
});
