// Finds a Chromium for the end-to-end tests (where `npx playwright install` cannot download one),
// installing one when the machine has none. Returns the executable to pass to Playwright's
// `launchOptions.executablePath`, or undefined when Playwright's own browser is the one to use.
// In order: CHROMIUM_PATH; the system Chromium; Playwright's own browser if installed; a
// `playwright install chromium` download; Debian's `chromium` package through apt-get when
// running as root (CI here has no route to Playwright's download host, only to apt).
// Run directly (`node scripts/ensure-browser.ts`) it prints the path, or nothing, on stdout.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * How the end-to-end tests and the page-load benchmark start Chromium. Without the
 * background-networking flags Chromium keeps trying to reach the closed network.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
] as const;

function say(message: string): void {
  process.stderr.write(`[ensure-browser] ${message}\n`);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function systemChromium(): string | undefined {
  return SYSTEM_CHROMIUM.find(isExecutable);
}

function playwrightChromiumInstalled(): boolean {
  try {
    return isExecutable(chromium.executablePath());
  } catch {
    return false;
  }
}

/** `playwright install chromium`; a machine without a route to the download host fails in seconds. */
function playwrightInstall(): boolean {
  say('no Chromium found; trying `playwright install chromium`');
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const result = spawnSync(process.execPath, [cli, 'install', 'chromium'], {
    stdio: ['ignore', 2, 2],
    // Fail fast when the host is unreachable instead of Playwright's 30 s per attempt; a slow
    // but working download is not cut short (the timeout is per connection, not per file).
    env: { PLAYWRIGHT_DOWNLOAD_CONNECTION_TIMEOUT: '10000', ...process.env },
  });
  return result.status === 0 && playwrightChromiumInstalled();
}

function canUseApt(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function aptInstall(): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    say(`apt-get ${args.join(' ')}`);
    // apt's progress goes to stderr so that stdout stays the answer when run as a command.
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 2, 2], env });
    if (result.status !== 0) {
      say(`apt-get ${args[0]} failed (exit ${result.status})`);
      return false;
    }
  }
  return systemChromium() !== undefined;
}

/**
 * The Chromium executable for Playwright, or undefined for Playwright's own browser.
 * Throws with the steps it tried when no browser can be had.
 */
export function ensureBrowser(): string | undefined {
  const named = process.env.CHROMIUM_PATH;
  if (named) {
    if (!isExecutable(named)) throw new Error(`CHROMIUM_PATH=${named} is not an executable file`);
    return named;
  }
  const system = systemChromium();
  if (system) return system;
  if (playwrightChromiumInstalled()) return undefined;
  if (playwrightInstall()) return undefined;
  if (canUseApt()) {
    say("Playwright's download is unreachable; installing Debian's chromium package (about 25 s)");
    if (aptInstall()) return systemChromium();
  }
  throw new Error(
    'No Chromium for the end-to-end tests: set CHROMIUM_PATH, install Chromium (apt-get install chromium), ' +
      'or run `npx playwright install chromium` on a machine with internet access.',
  );
}

if (import.meta.main) {
  try {
    const path = ensureBrowser();
    say(path ? `using ${path}` : "using Playwright's own Chromium");
    if (path) process.stdout.write(`${path}\n`);
  } catch (err) {
    say((err as Error).message);
    process.exit(1);
  }
}
