// Issue 28 (SC-07): a personal access token chooses its scopes in the Generate token dialog
// (every third-party scope ticked, by its sentence), and the tokens list shows them, on a
// desktop and on a phone (390 px).
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, openPage, row } from './support/portal.ts';

test('SC-07 generate a profile-only token in the portal and see its scopes in the list', async ({
  page,
  request,
  urls,
}) => {
  await signUpThroughPortal(page, newAccount('Mary Jackson'));
  const name = 'Names only';

  await openPage(page, 'API tokens');
  await page.getByRole('button', { name: 'Generate token' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Token name').fill(name);
  const scopes = dialog.getByRole('group', { name: 'Scopes' });
  const profile = scopes.getByRole('checkbox', { name: 'See your user id and name' });
  const email = scopes.getByRole('checkbox', { name: 'See your email address' });
  await expect(profile).toBeChecked();
  await expect(email).toBeChecked();
  await expect(scopes.getByRole('checkbox')).toHaveCount(2);
  await email.uncheck();

  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/tokens'),
    dialog.getByRole('button', { name: 'Generate token' }).click(),
  ]);
  expect(response.status()).toBe(201);
  expect(response.request().postDataJSON()).toMatchObject({ name, scopes: ['profile'] });
  const created = (await response.json()) as { token: { scopes: string[] }; value: string };
  expect(created.token.scopes).toEqual(['profile']);
  await closeDialog(page);

  await expect(row(page, name).getByRole('cell', { name: 'profile', exact: true })).toBeVisible();

  // The token's own name query is answered (what `email` gets is the API's rule, SC-06).
  const answer = await request.post(`${urls.apiUrl}/graphql`, {
    headers: { Authorization: `Bearer ${created.value}` },
    data: { query: '{ profile { name } }' },
  });
  expect(answer.status()).toBe(200);

  // A phone: the row is a card that still names its scopes, and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row(page, name)).toContainText('profile');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('button', { name: 'Generate token' }).first().click();
  await expect(page.getByRole('dialog').getByRole('group', { name: 'Scopes' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
