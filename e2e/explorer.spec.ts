// Journey 4: the Explorer (GraphiQL against the portal's /bff/graphql) runs the starter query.
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { test } from './support/fixtures.ts';
import { runStarterQuery } from './support/explorer.ts';

test('run { profile { name } } in the Explorer and see the signed-in user name', async ({ page }) => {
  const account = newAccount('Dorothy Vaughan');
  await signUpThroughPortal(page, account);
  await runStarterQuery(page, account.name);
});
