// Runs examples/third-party-app as a child process, as a developer would run it.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
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

export async function startExampleApp(settings: ExampleAppSettings): Promise<ExampleApp> {
  const child = spawn(process.execPath, ['examples/third-party-app/server.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ISSUER: settings.issuer,
      API_URL: settings.apiUrl,
      CLIENT_ID: settings.clientId,
      CLIENT_SECRET: settings.clientSecret,
      PORT: String(settings.port),
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${settings.port}`;

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The example app exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return { url, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The example app did not answer on ${url}:\n${output}`);
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
  return startExampleApp({
    issuer: urls.authUrl,
    apiUrl: urls.apiUrl,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    port,
  });
}
