// examples/cli-login run as a developer would run it (a child process reading its settings from
// the environment), and the device-grant public client it signs in as.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { openPage, shownOnce } from './portal.ts';
import type { SystemUrls } from './system-env.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  /** Resolves with the first match of `pattern` in what the tool printed so far or prints next. */
  printed(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves once the tool exits (a minute at most: then it is killed). */
  exited: Promise<CliResult>;
}

/** A fresh folder for the tool's refresh token (CLI_LOGIN_DIR), instead of ~/.config. */
export function newConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'latchkey-cli-login-'));
}

/** `node examples/cli-login/cli.ts <command>` against this system as `clientId`, keeping its token in `configDir`. */
export function runCliLogin(command: string, urls: SystemUrls, clientId: string, configDir: string): CliRun {
  const child = spawn(process.execPath, ['examples/cli-login/cli.ts', command], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ISSUER: urls.authUrl, API_URL: urls.apiUrl, CLIENT_ID: clientId, CLI_LOGIN_DIR: configDir },
  });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiting) check();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<CliResult>((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      for (const check of waiting) check();
      resolve({ code, stdout, stderr });
    }),
  );

  const printed = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) {
          waiting.delete(check);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiting.delete(check);
          reject(
            new Error(
              `cli-login exited (${child.exitCode ?? child.signalCode}) without printing ${pattern}:\n${stdout}${stderr}`,
            ),
          );
        }
      };
      waiting.add(check);
      check();
    });
  return { printed, exited };
}

/**
 * API clients → New client → Client name, Redirect URL, "Public client (no secret)" and the
 * device flow checkbox (DV-25) → Create client; the client ID is shown once, no secret. The
 * dialog stays open.
 */
export async function createDeviceClient(page: Page, name: string): Promise<{ clientId: string }> {
  await openPage(page, 'API clients');
  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Client name').fill(name);
  // A command-line tool receives no redirect; the form still asks for one.
  await dialog.getByLabel('Redirect URL', { exact: true }).fill('http://127.0.0.1/callback');
  await dialog.getByLabel('Public client (no secret)').check();
  await dialog.getByLabel(/device flow/).check();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/api/clients'),
    dialog.getByRole('button', { name: 'Create client' }).click(),
  ]);
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { client: { client_id: string; public: boolean; device_grant: boolean } };
  expect(body.client).toMatchObject({ public: true, device_grant: true });
  await expect(shownOnce(page, 'Client ID')).toHaveValue(body.client.client_id);
  return { clientId: body.client.client_id };
}
