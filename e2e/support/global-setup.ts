// Starts the whole system the way `npm start` does (scripts/start.ts: authorization server,
// API, BFF serving the built portal) on the ports playwright.config.ts picked, with a throwaway
// data folder, waits until every server answers, and returns the teardown that stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { START_FLAG, systemUrls, type SystemUrls } from './system-env.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Generous: scripts/start.ts may build the portal first on a cold checkout (2 cores). */
const READY_TIMEOUT_MS = 240_000;

/**
 * Latchkey's own settings (packages/config) are not inherited from the shell: a developer's
 * DATABASE_URL, NODE_ENV or secrets must not point the throwaway system at real data.
 */
const LATCHKEY_SETTINGS =
  /^(NODE_ENV|HOST|DATA_DIR|DATABASE_URL|REDIS_URL|(AUTH|API|PORTAL)_(PORT|URL)|SESSION_SECRET|PORTAL_CLIENT_(ID|SECRET)|(REFRESH_)?TOKEN_TTL_SECONDS|EXPIRES_IN_AS_NUMBER|GRAPHQL_INTROSPECTION|TRUST_PROXY|LOG_LEVEL|RATE_LIMIT_\w+|MAX_(CLIENTS|TOKENS)_PER_USER|DEMO_ACCOUNT)$/;

function inheritedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !LATCHKEY_SETTINGS.test(key)));
}

function port(url: string): string {
  return new URL(url).port;
}

/** One readiness probe: true once the server gives the expected answer. */
async function answers(url: string, init: RequestInit, ok: (response: Response) => boolean): Promise<boolean> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return ok(response);
  } catch {
    return false;
  }
}

async function waitUntilReady(urls: SystemUrls, child: ChildProcess, logFile: string): Promise<void> {
  const probes: Array<[string, () => Promise<boolean>]> = [
    [
      'authorization server metadata',
      () => answers(`${urls.authUrl}/.well-known/oauth-authorization-server`, {}, (r) => r.status === 200),
    ],
    [
      'API /graphql',
      () =>
        answers(
          `${urls.apiUrl}/graphql`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' },
          (r) => r.status < 500,
        ),
    ],
    ['BFF /bff/session', () => answers(`${urls.portalUrl}/bff/session`, {}, (r) => r.status === 401)],
    [
      'portal index.html',
      () => answers(`${urls.portalUrl}/`, { headers: { accept: 'text/html' } }, (r) => r.status === 200),
    ],
  ];
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const pending = new Map(probes);
  while (pending.size > 0) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `scripts/start.ts exited (${child.exitCode ?? child.signalCode}) before the system was ready:\n${tail(logFile)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The system did not become ready in ${READY_TIMEOUT_MS / 1000} s; still waiting for: ${[...pending.keys()].join(', ')}\n${tail(logFile)}`,
      );
    }
    for (const [name, probe] of pending) if (await probe()) pending.delete(name);
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no server output)';
  }
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Signals the process group we started (start.ts and anything it spawned), by its id. */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // Already gone.
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env[START_FLAG] !== '1') return async () => {};
  return startWholeSystem(systemUrls(), {
    // Every journey signs up or in; the defaults are for the open internet, not a test run.
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000',
    LOG_LEVEL: 'warn',
  });
}

/**
 * Runs scripts/start.ts on `urls`' ports with a throwaway data folder and `settings` on top of
 * its defaults; resolves once every server answers, with the teardown. The page-load benchmark
 * (bench/page-load.ts) starts the system this way too.
 */
export async function startWholeSystem(
  urls: SystemUrls,
  settings: Record<string, string> = {},
): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-e2e-'));
  // The workers inherit it: a journey that must stand for time passing edits the database
  // there (e2e/support/database.ts). Unset when the suite runs against a system already running.
  process.env.E2E_DATA_DIR = dataDir;
  const logFile = join(dataDir, 'system.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inheritedEnv(),
      AUTH_PORT: port(urls.authUrl),
      API_PORT: port(urls.apiUrl),
      PORTAL_PORT: port(urls.portalUrl),
      AUTH_URL: urls.authUrl,
      API_URL: urls.apiUrl,
      PORTAL_URL: urls.portalUrl,
      DATA_DIR: dataDir,
      ...settings,
    },
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });

  const teardown = async (): Promise<void> => {
    signal(child, 'SIGTERM');
    if (!(await exited(child, 10_000))) {
      signal(child, 'SIGKILL');
      await exited(child, 5_000);
    }
    log.end();
    // Kept for a look after a failed run (test-results/ is ignored by git).
    try {
      mkdirSync(join(root, 'test-results'), { recursive: true });
      copyFileSync(logFile, join(root, 'test-results', 'system.log'));
    } catch {
      // Nothing to keep.
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(urls, child, logFile);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
