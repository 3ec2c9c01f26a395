// Issue 35's journeys: roll a personal access token with an overlap and see both values work
// until it ends (TR-12), and the warning before a token expires (TR-09, TR-10).
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { ageToken, setTokenExpiresAt } from './support/database.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, row } from './support/portal.ts';
import { callApiWith, generateTokenLasting, rollToken, tokenRow } from './support/tokens.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** TR-08, by its wire name (Playwright lowercases header names): a journey checks what a client sees. */
const expiresAtHeader = 'latchkey-token-expires-at';

test('TR-12 roll a token keeping the old value for 1 hour: both values work, then the old one gets 401 and reads Revoked', async ({
  page,
  request,
  urls,
  leaks,
}) => {
  const account = newAccount('Grace Hopper');
  await signUpThroughPortal(page, account);
  const name = 'Deploy bot';
  const old = await generateTokenLasting(page, name, '30 days');

  const rolledAt = Date.now();
  const rolled = await rollToken(page, name, '1 hour');
  expect(rolled.value).toMatch(/^lkp_[0-9A-Za-z]{36}$/);
  expect(rolled.value).not.toBe(old.value);
  // TR-03: the same lifetime, from now.
  expect(Date.parse(rolled.expiresAt) - rolledAt).toBeGreaterThan(30 * DAY - 5 * 60 * 1000);
  await closeDialog(page);

  // During the overlap both values work, and each answer says when its token stops (TR-08).
  const oldAnswer = await callApiWith(request, urls, old.value);
  expect(oldAnswer.status()).toBe(200);
  expect(await oldAnswer.json()).toEqual({ data: { profile: { name: account.name } } });
  const overlapEnd = Date.parse(oldAnswer.headers()[expiresAtHeader] ?? '');
  expect(overlapEnd).toBeGreaterThan(rolledAt + HOUR - 60 * 1000);
  expect(overlapEnd).toBeLessThanOrEqual(Date.now() + HOUR);
  const newAnswer = await callApiWith(request, urls, rolled.value);
  expect(newAnswer.status()).toBe(200);
  expect(newAnswer.headers()[expiresAtHeader]).toBe(rolled.expiresAt);

  await expect(tokenRow(page, old.last4)).toContainText('old value works until');
  await expect(tokenRow(page, rolled.last4).getByText('Active', { exact: true })).toBeVisible();

  // The hour passes: the old row's expiry (the overlap's end) moves into the past.
  setTokenExpiresAt(old.id, Date.now() - 1000);
  const refused = await callApiWith(request, urls, old.value);
  expect(refused.status()).toBe(401);
  expect(refused.headers()['www-authenticate']).toContain('invalid_token');
  expect(refused.headers()[expiresAtHeader]).toBeUndefined();
  expect((await callApiWith(request, urls, rolled.value)).status()).toBe(200);

  await page.reload();
  await expect(tokenRow(page, old.last4).getByText('Revoked', { exact: true })).toBeVisible();
  await expect(tokenRow(page, old.last4).getByRole('button', { name: 'Roll' })).toHaveCount(0);
  await expect(tokenRow(page, rolled.last4).getByText('Active', { exact: true })).toBeVisible();

  // TS-04: the new value reached the browser once, in the roll's answer.
  const carrying = await leaks.responsesContaining(rolled.value);
  expect(carrying.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
    `POST /bff/api/tokens/${old.id}/roll 201`,
  ]);
});

test('TR-10 a new 7-day token raises no banner; a 30-day token with 3 days left is named in the banner and marked Expires soon', async ({
  page,
}) => {
  await signUpThroughPortal(page, newAccount('Mary Jackson'));
  const banner = page.getByRole('status').filter({ hasText: 'expires soon' });

  await generateTokenLasting(page, 'weekly', '7 days');
  await expect(row(page, 'weekly')).toContainText('Active');
  await expect(row(page, 'weekly')).not.toContainText('Expires soon');
  await expect(banner).toHaveCount(0);

  const deploy = await generateTokenLasting(page, 'deploy', '30 days');
  await expect(banner).toHaveCount(0);
  // 27 of its 30 days pass: 3 days left, under a fifth of its lifetime (TR-09).
  ageToken(deploy.id, 27 * DAY);
  await page.reload();

  await expect(banner).toHaveText('1 token expires soon: deploy (in 3 days). Roll it to keep it working.');
  await expect(row(page, 'deploy')).toContainText('Expires soon');
  await expect(row(page, 'weekly')).not.toContainText('Expires soon');
});
