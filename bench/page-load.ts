// Issue 20's benchmark (`node bench/page-load.ts`, or benchPageLoad() from bench/run.ts): the
// portal on a slow phone, in a real Chromium. The whole system runs as `npm start` runs it
// (scripts/start.ts: built portal, production defaults, logs on). Each measurement opens a new
// browser context (a cold HTTP cache) signed in with the same session cookies, throttles it
// through the DevTools protocol to Chrome's "Slow 4G" preset and a CPU four times slower, and
// times the navigation until the page can be used:
// - the API tokens page: Generate token and the list (or its empty state) on screen;
// - the Explorer: the editor holding the starter query, and its Execute button;
// by the page's own clock from the start of its navigation, and counts the bytes transferred
// (compressed, headers included) until the tokens page is usable.
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { startWholeSystem } from '../e2e/support/global-setup.ts';
import { prepareSystemEnv, type SystemUrls } from '../e2e/support/system-env.ts';
import { ensurePortalBuilt } from '../scripts/build-portal.ts';
import { CHROMIUM_ARGS, ensureBrowser } from '../scripts/ensure-browser.ts';
import type { Figure, Goal } from './results.ts';

/** Issue 20's goals, and the figures it measured before (same profile, uncompressed portal). */
export const PAGE_LOAD_GOALS = { tokensPageMs: 2500, explorerMs: 8000, bytesBeforeTokensPage: 130_000 } as const;
const BEFORE = { tokensPageMs: 4300, explorerMs: 24_700, bytesBeforeTokensPage: 376_000 } as const;

/**
 * Chrome DevTools' "Slow 4G" preset (Lighthouse's mobile profile, 150 ms RTT and 1.6 Mbit/s,
 * with DevTools' packet-level adjustment): 562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up.
 */
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 } as const;
const CPU_SLOWDOWN = 4;

export interface PageLoadResult {
  tokensPageMs: number;
  explorerMs: number;
  bytesBeforeTokensPage: number;
  scriptBytesBeforeTokensPage: number;
  goals: Goal[];
}

interface Load {
  ms: number;
  bytes: number;
  scriptBytes: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;

/** A new account through the real pages, unthrottled: `/` → sign-in → Create account → the portal. */
async function signUp(
  browser: Browser,
  urls: SystemUrls,
): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const context = await browser.newContext({ baseURL: urls.portalUrl });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Phoebe Phone');
    await page.getByLabel('Email', { exact: true }).fill(`phoebe.${Date.now()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill('slow phone quiet lantern');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * When the page became usable, by its own clock (milliseconds since its navigation started):
 * a MutationObserver in the page records the first moment `usable` holds. Playwright's own
 * waiting would poll the page with its injected script, and at a 4x CPU slowdown that polling
 * costs the page tens of milliseconds; here Node only reads the recorded time, twice a second.
 */
function recordUsable(condition: string): string {
  return `(() => {
    const usable = () => { try { return ${condition}; } catch { return false; } };
    const check = () => {
      if (window.__usableAt === undefined && usable()) window.__usableAt = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  })();`;
}

/** Generate token and the list (or its empty state) on screen. */
const TOKENS_PAGE_USABLE = `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Generate token')
  && ([...document.querySelectorAll('table caption')].some((c) => c.textContent.trim() === 'API tokens')
    || document.body.textContent.includes('No API tokens yet'))`;

/** The editor holding the starter query, and the button that runs it. */
const EXPLORER_USABLE = `document.querySelector('button[aria-label^="Execute query"]') !== null
  && (document.querySelector('.graphiql-query-editor')?.textContent ?? '').includes('profile')`;

/** One cold, throttled navigation to `path`, until the page says it is usable. */
async function timeLoad(
  browser: Browser,
  urls: SystemUrls,
  state: Awaited<ReturnType<BrowserContext['storageState']>>,
  path: string,
  usable: string,
): Promise<Load> {
  const context = await browser.newContext({ baseURL: urls.portalUrl, storageState: state });
  try {
    const page = await context.newPage();
    await page.addInitScript(recordUsable(usable));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    // CDP's timestamps share one monotonic clock: the document's request marks the navigation's
    // start, so a response that finished before `start + ms` finished before the page was usable.
    const scripts = new Set<string>();
    const finished: Array<{ at: number; bytes: number; script: boolean }> = [];
    let start: number | undefined;
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.type === 'Document' && start === undefined) start = event.timestamp;
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') scripts.add(event.requestId);
    });
    cdp.on('Network.loadingFinished', (event) => {
      finished.push({ at: event.timestamp, bytes: event.encodedDataLength, script: scripts.has(event.requestId) });
    });
    await page.goto(path, { waitUntil: 'commit', timeout: 120_000 });
    const handle = await page.waitForFunction(() => (window as { __usableAt?: number }).__usableAt, undefined, {
      polling: 500,
      timeout: 120_000,
    });
    const ms = (await handle.jsonValue()) as number;
    const before = finished.filter((f) => start !== undefined && f.at <= start + ms / 1000);
    const bytes = before.reduce((sum, f) => sum + f.bytes, 0);
    const scriptBytes = before.filter((f) => f.script).reduce((sum, f) => sum + f.bytes, 0);
    return { ms, bytes, scriptBytes };
  } finally {
    await context.close();
  }
}

/** The page loads' figures for bench/results.md: the medians, as the goals compare them. */
export function pageLoadFigures(result: PageLoadResult): Figure[] {
  return [
    { figure: 'API tokens page usable, Slow 4G and 4× CPU', measured: `${seconds(result.tokensPageMs)} (median)` },
    { figure: 'Explorer usable, Slow 4G and 4× CPU', measured: `${seconds(result.explorerMs)} (median)` },
    {
      figure: 'Bytes transferred before the API tokens page is usable',
      measured: `${kb(result.bytesBeforeTokensPage)}, ${kb(result.scriptBytesBeforeTokensPage)} of it JavaScript (median)`,
    },
  ];
}

export async function benchPageLoad(options: { runs?: number; print?: boolean } = {}): Promise<PageLoadResult> {
  const runs = options.runs ?? 3;
  const print = options.print ?? true;
  ensurePortalBuilt();
  const urls = await prepareSystemEnv();
  const stop = await startWholeSystem(urls);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: ensureBrowser(), args: [...CHROMIUM_ARGS] });
    const state = await signUp(browser, urls);
    const tokens: Load[] = [];
    const explorer: Load[] = [];
    for (let run = 0; run < runs; run++) {
      tokens.push(await timeLoad(browser, urls, state, '/tokens', TOKENS_PAGE_USABLE));
      explorer.push(await timeLoad(browser, urls, state, '/explorer', EXPLORER_USABLE));
    }
    const result: PageLoadResult = {
      tokensPageMs: median(tokens.map((l) => l.ms)),
      explorerMs: median(explorer.map((l) => l.ms)),
      bytesBeforeTokensPage: median(tokens.map((l) => l.bytes)),
      scriptBytesBeforeTokensPage: median(tokens.map((l) => l.scriptBytes)),
      goals: [],
    };
    result.goals = [
      {
        goal: `tokens page usable ≤ ${seconds(PAGE_LOAD_GOALS.tokensPageMs)} (slow 4G, 4× CPU)`,
        measured: `${seconds(result.tokensPageMs)} (before: ${seconds(BEFORE.tokensPageMs)})`,
        pass: result.tokensPageMs <= PAGE_LOAD_GOALS.tokensPageMs,
      },
      {
        goal: `Explorer usable ≤ ${seconds(PAGE_LOAD_GOALS.explorerMs)} (slow 4G, 4× CPU)`,
        measured: `${seconds(result.explorerMs)} (before: ${seconds(BEFORE.explorerMs)})`,
        pass: result.explorerMs <= PAGE_LOAD_GOALS.explorerMs,
      },
      {
        goal: `bytes before the tokens page renders ≤ ${kb(PAGE_LOAD_GOALS.bytesBeforeTokensPage)}`,
        measured: `${kb(result.bytesBeforeTokensPage)}, ${kb(result.scriptBytesBeforeTokensPage)} of it JS (before: ${kb(BEFORE.bytesBeforeTokensPage)} of JS)`,
        pass: result.bytesBeforeTokensPage <= PAGE_LOAD_GOALS.bytesBeforeTokensPage,
      },
    ];
    if (print) {
      console.log(
        `Portal page load on a slow phone: Chromium, cold cache per run, Slow 4G (${SLOW_4G.latency} ms latency, ${(SLOW_4G.downloadThroughput * 8) / 1e6} Mbit/s down), CPU ${CPU_SLOWDOWN}× slower; median of ${runs} runs`,
      );
      for (const [name, loads] of [
        ['API tokens page', tokens],
        ['Explorer', explorer],
      ] as const) {
        console.log(
          `  ${name.padEnd(16)} usable after ${loads.map((l) => seconds(l.ms)).join(', ')}; ${loads.map((l) => kb(l.bytes)).join(', ')} transferred`,
        );
      }
      for (const { goal, measured, pass } of result.goals)
        console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${goal.padEnd(50)} measured ${measured}`);
    }
    return result;
  } finally {
    await browser?.close();
    await stop();
  }
}

if (import.meta.main) {
  const result = await benchPageLoad();
  process.exitCode = result.goals.every((g) => g.pass) ? 0 : 1;
}
