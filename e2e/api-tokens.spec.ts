// Journey 3: generate a personal access token, use it against the API, revoke it in the page,
// and see the very next call refused (DD-5: revocation is immediate).
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, generateToken, revoke, row } from './support/portal.ts';

test('generate a token, call /graphql with it, revoke it in the page, and the next call gets 401', async ({
  page,
  request,
  urls,
  leaks,
}) => {
  const account = newAccount('Katherine Johnson');
  await signUpThroughPortal(page, account);
  const name = 'Deploy bot';

  const token = await generateToken(page, name);
  expect(token.value).toMatch(/^lkp_[0-9A-Za-z]{36}$/);
  await expect(page.getByRole('dialog').getByRole('button', { name: /copy/i })).toBeVisible();
  await closeDialog(page);
  await expect(row(page, name)).toContainText(token.value.slice(-4));
  await expect(row(page, name)).toContainText('Active');

  const callApi = () =>
    request.post(`${urls.apiUrl}/graphql`, {
      headers: { Authorization: `Bearer ${token.value}` },
      data: { query: '{ profile { name } }' },
    });
  const accepted = await callApi();
  expect(accepted.status()).toBe(200);
  expect(await accepted.json()).toEqual({ data: { profile: { name: account.name } } });

  await revoke(page, name, 'tokens');

  const refused = await callApi();
  expect(refused.status()).toBe(401);
  expect(refused.headers()['www-authenticate']).toContain('invalid_token');

  // The PAT reached the browser once: in the response that created it.
  const carrying = await leaks.responsesContaining(token.value);
  expect(carrying.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
    'POST /bff/api/tokens 201',
  ]);
  expect(carrying[0]!.text).toMatch(/^cache-control: .*no-store/im);
});
