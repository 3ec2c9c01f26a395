// The `test` every journey uses: Playwright's, plus the system's URLs and the browser leak
// checks of TS-02/TS-04, which run around every test automatically.
import { test as base, expect, type BrowserContext } from '@playwright/test';
import { LeakRecorder } from './leak-recorder.ts';
import { systemUrls, type SystemUrls } from './system-env.ts';

export interface Fixtures {
  urls: SystemUrls;
  /** Watches the default context; call `leaks.watch(ctx)` for contexts a test opens itself. */
  leaks: LeakRecorder;
  /** A further browser context (another user, or a fresh browser), already watched for leaks. */
  newContext: () => Promise<BrowserContext>;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  urls: async ({}, use) => {
    await use(systemUrls());
  },
  leaks: [
    async ({ context }, use, testInfo) => {
      const recorder = new LeakRecorder();
      recorder.watch(context);
      await use(recorder);
      const problems = await recorder.problems();
      testInfo.annotations.push({
        type: 'leak-check',
        description: [
          `${recorder.responses.length} responses scanned, ${recorder.unreadable.length} bodies unavailable`,
          ...recorder.unreadable,
        ].join('\n'),
      });
      expect(problems, 'TS-02/TS-04: secrets seen by the browser').toEqual([]);
    },
    { auto: true },
  ],
  newContext: async ({ browser, leaks, urls }, use) => {
    const opened: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext({ baseURL: urls.portalUrl });
      leaks.watch(context);
      opened.push(context);
      return context;
    });
    // The leak fixture's teardown runs after this one: take the storage snapshot first.
    await leaks.snapshotStorage();
    for (const context of opened) await context.close();
  },
});

export { expect };
