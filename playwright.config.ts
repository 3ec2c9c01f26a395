// End-to-end tests (DD-10; Playwright 1.64, the release built for Chromium 156): the whole
// system started on free ports with a throwaway data folder (e2e/support/global-setup.ts), driven
// by Chromium: the system's own when one is found or named (CHROMIUM_PATH), Playwright's otherwise.
// `npx playwright test` runs it on its own; `npm test` runs it after Vitest and counts its results.
import { defineConfig } from '@playwright/test';
import { prepareSystemEnv } from './e2e/support/system-env.ts';
import { CHROMIUM_ARGS, ensureBrowser } from './scripts/ensure-browser.ts';

const urls = await prepareSystemEnv();

/** Resolved once by the runner; the workers inherit the answer through the environment. */
function chromiumPath(): string | undefined {
  if (process.env.E2E_CHROMIUM === undefined) process.env.E2E_CHROMIUM = ensureBrowser() ?? '';
  return process.env.E2E_CHROMIUM || undefined;
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './e2e/support/global-setup.ts',
  // Two cores: one server process plus two browsers is the most they carry without timeouts.
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT ?? 'playwright-report/results.json' }]],
  use: {
    baseURL: urls.portalUrl,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    // Recording a trace of every test cost about a quarter of the suite's time on 2 cores (68 s
    // against 51 s for the same four tests), and CI keeps only the log: there, a trace is taken
    // only when a failed test is retried. Locally, a failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS],
    },
  },
});
