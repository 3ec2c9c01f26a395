// Journey 4: the Explorer (GraphiQL against the portal's /bff/graphql) runs the starter query.
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';
import { runStarterQuery } from './support/explorer.ts';

test('run { profile { name } } in the Explorer and see the signed-in user name', async ({ page }) => {
  const account = newAccount('Dorothy Vaughan');
  await signUpThroughPortal(page, account);
  await runStarterQuery(page, account.name);

  // The editor keeps what people use in it with the lean Monaco (monaco-core.ts, PF-04):
  // completion from the schema, and find.
  const editor = page.locator('.graphiql-query-editor');
  await editor.click();
  // Inside `profile { … }`, on a new line after `name`: the profile's fields are offered.
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.suggest-widget.visible .monaco-list-row').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+F');
  await expect(page.locator('.find-widget.visible')).toBeVisible();
});
