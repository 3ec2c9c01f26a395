// The portal's Security log page (AU-08) as a user reads it: opened from the navigation, its
// rows by their cells, and whether a phone's screen holds it.
import { expect, type Page } from '@playwright/test';

/** The navigation's Security log link → the page, its table or its empty state drawn. */
export async function openSecurityLog(page: Page): Promise<void> {
  await page.getByRole('navigation').first().getByRole('link', { name: 'Security log', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Security log' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Security log' }).or(page.getByText('Nothing here yet.'))).toBeVisible();
}

export interface LogRow {
  when: string;
  event: string;
  by: string;
  from: string;
  target: string;
}

/** The log's rows, newest first, each cell's visible text (cards on a phone, the same cells). */
export async function logRows(page: Page): Promise<LogRow[]> {
  const rows = page.getByRole('table', { name: 'Security log' }).locator('tbody tr');
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
    ),
  );
  return cells.map(([when = '', event = '', by = '', from = '', target = '']) => ({ when, event, by, from, target }));
}

/** The Event column, newest first, once the page shows exactly `events`. */
export async function expectLogEvents(page: Page, events: string[]): Promise<void> {
  await expect.poll(async () => (await logRows(page)).map((row) => row.event)).toEqual(events);
}

/**
 * Every element that reaches past the sides of a screen `width` wide, and the page if it scrolls
 * sideways. An element inside a container that scrolls sideways itself (the navigation, a wide
 * table's surface) is that container's business: only the container must fit.
 */
export function overflowing(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > width) found.push(`page scrolls to ${root.scrollWidth}`);
    const scrolls = (element: Element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    for (const element of document.body.querySelectorAll('*')) {
      let parent = element.parentElement;
      while (parent && parent !== document.body && !scrolls(parent)) parent = parent.parentElement;
      if (parent && parent !== document.body) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.left < -0.5 || box.right > width + 0.5)) {
        found.push(
          `${element.tagName.toLowerCase()}.${element.className} ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
      }
    }
    return found;
  }, width);
}
