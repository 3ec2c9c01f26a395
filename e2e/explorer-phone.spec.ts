// The Explorer (GraphiQL with Monaco) on a 390 px phone, by keyboard, and under axe-core:
// AX-04 (one column, overlays, nothing wider than the screen), AX-05 (the Tab trap explained,
// and the key it names works), AX-06 (no axe violations with GraphiQL's panels and dialogs open,
// light and dark, 1280 and 390 px) and AX-07 (GraphiQL follows the OS colour scheme).
import type { Locator, Page } from '@playwright/test';
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { axeViolations } from './support/axe.ts';
import { runStarterQueryAt } from './support/explorer.ts';
import { expect, test } from './support/fixtures.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function boxOf(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  if (!box) throw new Error('no bounding box');
  return box;
}

/**
 * Every element that reaches past the right edge of the screen, unless an ancestor that itself
 * fits clips it (Monaco's scrolled lines inside the editor's frame): what a person would have
 * to scroll sideways for, or could not reach at all.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const clipsInside = (el: Element): boolean => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== 'visible' && a.getBoundingClientRect().right <= width + 0.5) return true;
      }
      return false;
    };
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`document scrollWidth ${document.documentElement.scrollWidth}`);
    for (const el of document.querySelectorAll('body *')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.right > width + 0.5 && !clipsInside(el)) {
        found.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(rect.right)}`);
      }
    }
    return found;
  });
}

test('AX-04 AX-05 on a 390 px phone the Explorer stacks editor, variables and result at full width, with nothing wider than the screen, its docs panel a full-screen overlay with a labelled close button; the page explains that Tab indents in the editor, and Ctrl+M makes Tab move focus out of it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize(PHONE);
  const account = newAccount('Katherine Johnson');
  await signUpThroughPortal(page, account);
  await runStarterQueryAt(page, account.name);

  const editor = await boxOf(page.locator('.graphiql-query-editor'));
  const variables = await boxOf(page.getByRole('region', { name: 'Variables' }));
  const result = await boxOf(page.locator('.graphiql-response'));
  for (const [name, box] of Object.entries({ editor, variables, result })) {
    expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(PHONE.width);
    expect(box.width, `${name} is (nearly) the screen's width`).toBeGreaterThanOrEqual(PHONE.width * 0.8);
    expect(box.height, `${name} is tall enough to use`).toBeGreaterThanOrEqual(80);
  }
  expect(variables.y, 'variables under the editor').toBeGreaterThanOrEqual(editor.y + editor.height - 1);
  expect(result.y, 'result under the variables').toBeGreaterThanOrEqual(variables.y + variables.height - 1);
  // The result is reached by scrolling down, and shows the name.
  await page.locator('.graphiql-response').scrollIntoViewIfNeeded();
  await expect(page.locator('.graphiql-response')).toContainText(account.name);
  expect(await overflowing(page)).toEqual([]);

  // The docs panel covers the screen and closes by its own labelled button.
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
  const docs = page.locator('.graphiql-plugin');
  await expect(docs.getByText(/Query/).first()).toBeVisible();
  const overlay = await boxOf(docs);
  expect(overlay).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
  expect(await overflowing(page)).toEqual([]);
  const close = page.getByRole('button', { name: 'Close Documentation Explorer' });
  await expect(close).toBeFocused();
  await close.click();
  await expect(close).toBeHidden();
  await expect(page.getByRole('button', { name: 'Show Documentation Explorer' })).toBeFocused();
  await expect(page.locator('.graphiql-query-editor')).toBeInViewport();

  // The history panel likewise, closed by Escape.
  await page.getByRole('button', { name: 'Show History' }).click();
  expect(await boxOf(page.locator('.graphiql-plugin'))).toEqual({
    x: 0,
    y: 0,
    width: PHONE.width,
    height: PHONE.height,
  });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Close History' })).toBeHidden();

  // The settings dialog covers the screen too, and its close button is named plainly.
  await page.getByRole('button', { name: 'Open settings dialog' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  expect(await boxOf(dialog)).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
  expect(await overflowing(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Close dialog', exact: true }).click();
  await expect(dialog).toBeHidden();

  // AX-05, on the same page.
  await expect(page.getByText('In the editors, Tab indents.')).toBeVisible();
  await expect(page.getByText('In the editors, Tab indents.')).toContainText('Ctrl+M');

  const inEditor = () =>
    page.evaluate(() => Boolean(document.activeElement?.closest('.graphiql-query-editor .monaco-editor')));
  await page.locator('.graphiql-query-editor .view-lines').click();
  // Without the key, Tab stays in the editor (and indents): the trap the note is about.
  await page.keyboard.press('Tab');
  expect(await inEditor()).toBe(true);
  await page.keyboard.press('ControlOrMeta+Z');
  // With it, Tab leaves the editor for the next control.
  await page.keyboard.press('Control+M');
  await page.keyboard.press('Tab');
  expect(await inEditor()).toBe(false);
  await expect(page.getByRole('button', { name: /execute query/i })).toBeFocused();
  // The query was not changed on the way out.
  await expect(page.locator('.graphiql-query-editor')).toContainText('profile');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`AX-06 AX-07 no axe violations in the Explorer with the docs panel, history or settings open, ${scheme} scheme, 1280 and 390 px`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.emulateMedia({ colorScheme: scheme });
    const account = newAccount(`Explorer ${scheme}`);
    await signUpThroughPortal(page, account);
    await runStarterQueryAt(page, account.name);

    // AX-07: GraphiQL follows the OS setting, like the portal around it.
    const base = await page
      .locator('.graphiql-container')
      .evaluate((el) => getComputedStyle(el).getPropertyValue('--color-base').trim());
    expect(base.endsWith(scheme === 'dark' ? '14%' : '100%'), `--color-base ${base}`).toBe(true);

    const findings: string[] = [];
    const audit = async (state: string, width: number, include?: string) => {
      findings.push(...(await axeViolations(page, `${width}px ${state}`, include)));
    };
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      // On the phone the panel covers GraphiQL's sidebar: it closes by its own button.
      const closePanel = (title: string) =>
        page.getByRole('button', { name: viewport === PHONE ? `Close ${title}` : `Hide ${title}` }).click();
      await audit('editor', viewport.width);

      await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
      await expect(page.locator('.graphiql-doc-explorer')).toBeVisible();
      await audit('docs panel', viewport.width, '.graphiql-plugin');
      // A type's page too: field names, types and descriptions in their colours.
      await page.locator('.graphiql-doc-explorer').getByRole('link').first().click();
      await audit('docs panel, a type', viewport.width, '.graphiql-plugin');
      await closePanel('Documentation Explorer');

      await page.getByRole('button', { name: 'Show History' }).click();
      await expect(page.locator('.graphiql-history')).toBeVisible();
      await audit('history panel', viewport.width, '.graphiql-plugin');
      await closePanel('History');

      await page.getByRole('button', { name: 'Open settings dialog' }).click();
      await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
      await audit('settings dialog', viewport.width, '[role="dialog"]');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Open short keys dialog' }).click();
      await expect(page.getByRole('dialog', { name: 'Short Keys' })).toBeVisible();
      await audit('short keys dialog', viewport.width, '[role="dialog"]');
      await page.keyboard.press('Escape');
    }
    expect(findings).toEqual([]);
  });
}
