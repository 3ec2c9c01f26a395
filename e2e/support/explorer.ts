// The Explorer page: GraphiQL with the starter query `{ profile { name } }`.
import { expect, type Page } from '@playwright/test';

/** Opens the Explorer from the navigation, runs the starter query and waits for the name in the result. */
export async function runStarterQuery(page: Page, expectedName: string): Promise<void> {
  await page.getByRole('navigation').first().getByRole('link', { name: 'Explorer', exact: true }).click();
  await expect(page).toHaveURL(/\/explorer$/);
  const run = page.getByRole('button', { name: /execute query/i });
  // The lazy chunk (GraphiQL and Monaco) is large: allow it time to arrive on a busy machine.
  await expect(run).toBeVisible({ timeout: 30_000 });
  // Monaco draws the starter query's lines only once it has laid itself out: as slow as the chunk.
  await expect(page.locator('.graphiql-query-editor')).toContainText('profile', { timeout: 30_000 });
  const [response] = await Promise.all([
    // GraphiQL also posts its introspection query; wait for the one this click sent.
    page.waitForResponse(
      (r) =>
        r.request().method() === 'POST' &&
        new URL(r.url()).pathname === '/bff/graphql' &&
        (r.request().postData() ?? '').includes('profile'),
    ),
    run.click(),
  ]);
  expect(response.status()).toBe(200);
  await expect(page.locator('.graphiql-response')).toContainText(expectedName);
}

/**
 * Opens the Explorer by its address (at any width, the phone's included, where the navigation
 * may be folded away), runs the starter query and waits for the name in the result.
 */
export async function runStarterQueryAt(page: Page, expectedName: string): Promise<void> {
  await page.goto('/explorer');
  const run = page.getByRole('button', { name: /execute query/i });
  await expect(run).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.graphiql-query-editor')).toContainText('profile', { timeout: 60_000 });
  await run.click();
  await expect(page.locator('.graphiql-response')).toContainText(expectedName, { timeout: 15_000 });
}
