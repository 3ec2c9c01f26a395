// Runs the examples (examples/third-party-app, examples/browser-app) as child processes, as a
// developer would run them.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { newAccount, signUpThroughPortal, type Account } from './accounts.ts';
import { closeDialog, createClient } from './portal.ts';
import { reservedPort, type SystemUrls } from './system-env.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ExampleApp {
  url: string;
  stop(): Promise<void>;
}

export interface ExampleAppSettings {
  issuer: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  port: number;
}

export function startExampleApp(settings: ExampleAppSettings): Promise<ExampleApp> {
  return startExampleServer('examples/third-party-app/server.ts', settings.port, {
    ISSUER: settings.issuer,
    API_URL: settings.apiUrl,
    CLIENT_ID: settings.clientId,
    CLIENT_SECRET: settings.clientSecret,
  });
}

/** Runs one of examples/ (`script`, from the repository root) with `env`; resolves once `/` answers 200. */
export async function startExampleServer(
  script: string,
  port: number,
  env: Record<string, string>,
): Promise<ExampleApp> {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, PORT: String(port) },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${port}`;

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return { url, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${script} did not answer on ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * How each journey with the example app begins: the developer signed in to the portal in `page`
 * registers a client for it (its redirect URL on a reserved port), and the app starts with that
 * client's credentials. Stop it in a `finally`.
 */
export async function registerExampleApp(page: Page, urls: SystemUrls, clientName: string): Promise<ExampleApp> {
  const port = await reservedPort();
  const client = await createClient(page, clientName, `http://localhost:${port}/callback`);
  await closeDialog(page);
  return startExampleAppFor(urls, client, port);
}

/** The example app on `port` with a registered client's credentials, against this system. */
export function startExampleAppFor(
  urls: SystemUrls,
  client: { clientId: string; clientSecret: string },
  port: number,
): Promise<ExampleApp> {
  return startExampleApp({
    issuer: urls.authUrl,
    apiUrl: urls.apiUrl,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    port,
  });
}

export interface ExampleAppJourney {
  /** The name the app is registered under. */
  clientName: string;
  /** Signed up in the portal; registered the app. */
  owner: Account;
  /** No account yet. */
  user: Account;
  appUrl: string;
  /** The user's one browser: the example app and, later, the portal. */
  browser: Page;
  /** Waits for the app's page to greet the user. */
  signedIn(): Promise<void>;
}

/**
 * How the journeys of a user through the example app begin (two minutes at most): Olive Owner
 * signs up in `page` and registers the app as Weather Widget; Uma User gets a browser of their
 * own. The app stops after `run`.
 */
export async function exampleAppJourney(
  page: Page,
  urls: SystemUrls,
  newContext: () => Promise<BrowserContext>,
  run: (journey: ExampleAppJourney) => Promise<void>,
): Promise<void> {
  test.setTimeout(120_000);
  const clientName = 'Weather Widget';
  const owner = newAccount('Olive Owner');
  const user = newAccount('Uma User');
  await signUpThroughPortal(page, owner);
  const app = await registerExampleApp(page, urls, clientName);
  try {
    const browser = await (await newContext()).newPage();
    const signedIn = () => expect(browser.getByText(`Signed in as ${user.name}`)).toBeVisible();
    await run({ clientName, owner, user, appUrl: app.url, browser, signedIn });
  } finally {
    await app.stop();
  }
}
