// RS-21 (issue 31): the MCP conformance suite's authorization-server scenarios
// (@modelcontextprotocol/conformance, pinned) against the real servers: its RFC 8414 metadata
// checks, then an authorization code grant with PKCE S256, `state` and `resource` through the
// real sign-in and consent pages, the redirect delivered to its loopback callback, and its
// checks of the callback (`iss`, single `code`/`state`) and of the token response.
//
// Its output is captured, never inherited: its closing "Total: N passed, M failed" has the shape
// of the line CI reads at the end of `npm test`. It is shown only in a failing assertion.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LATCHKEY_API_TARGET } from '@latchkey/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reservedPort } from '../support/loopback.ts';
import { startInteropSystem, type InteropSystem } from './interop-support.ts';
import { registerPublicClient } from './mcp-support.ts';

/** The suite's CLI (bin `conformance`), found through its package.json (its exports list no bin). */
const CONFORMANCE_CLI = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

/**
 * The suite waits up to 5 minutes for the callback; a stuck run fails the test well before: each
 * of the two waits (its authorization URL, its exit) gets this long, and the test both and more.
 */
const WAIT_MS = 25_000;
const TEST_TIMEOUT_MS = 60_000;

interface ConformanceRun {
  child: ChildProcess;
  /**
   * Everything it printed so far (stdout and stderr, interleaved), each line behind `| ` so that
   * none of them reads as a test runner's summary line where a failure message shows it.
   */
  output(): string;
  /** The authorization URL it printed, for the user's browser. */
  authorizationUrl: Promise<string>;
  /** Its exit code, once its output is all read. */
  exit: Promise<number | null>;
}

/**
 * `conformance authorization --url <issuer> --client-id <id> [--resource <uri>] -p <port>` under
 * this process's Node (the suite needs Node 22 or later; the machine's `node` may be older).
 */
function runConformance(args: string[]): ConformanceRun {
  const child = spawn(process.execPath, [CONFORMANCE_CLI, 'authorization', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let text = '';
  let announce: (url: string) => void;
  const authorizationUrl = new Promise<string>((resolve) => (announce = resolve));
  const read = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    const line = text.split('\n').find((l) => /^https?:\/\/\S+\/oauth\/authorize\?/.test(l.trim()));
    if (line) announce(line.trim());
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const output = () => text.replace(/^/gm, '  | ');
  return { child, output, authorizationUrl, exit };
}

/** Resolves with `promise`, or rejects after WAIT_MS (or when the suite exits first) with its output so far. */
async function within<T>(run: ConformanceRun, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT_MS} ms:\n${run.output()}`)), WAIT_MS);
  });
  const exited = run.exit.then((code): never => {
    throw new Error(`the suite exited (${code}) before ${what}:\n${run.output()}`);
  });
  // Raced below, and rejected later when the race was won by `promise`: not an unhandled rejection.
  exited.catch(() => undefined);
  try {
    return await Promise.race(what === 'exit' ? [promise, timeout] : [promise, timeout, exited]);
  } finally {
    clearTimeout(timer);
  }
}

describe('RS-21 MCP conformance suite, authorization-server scenarios', () => {
  let interop: InteropSystem;
  let clientId: string;
  let run: ConformanceRun | undefined;

  beforeAll(async () => {
    interop = await startInteropSystem();
    // PC-06: the registered loopback redirect without a port matches the suite's callback port.
    clientId = await registerPublicClient(interop, 'http://127.0.0.1/callback');
  });
  afterAll(() => interop?.close());
  afterEach(() => {
    if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    run = undefined;
  });

  async function passes(extraArgs: string[]): Promise<{ authorizationUrl: URL }> {
    const port = await reservedPort();
    run = runConformance(['--url', interop.system.authUrl, '--client-id', clientId, ...extraArgs, '-p', String(port)]);
    const current = run;
    const authorizationUrl = new URL(await within(current, current.authorizationUrl, 'authorization URL'));
    // The user's browser: sign in, Allow, then the redirect to the suite's callback.
    const callback = await interop.runBrowser(authorizationUrl);
    expect(callback.origin + callback.pathname, current.output()).toBe(`http://127.0.0.1:${port}/callback`);
    const delivered = await fetch(callback);
    await delivered.arrayBuffer();
    const code = await within(current, current.exit, 'exit');
    const output = current.output();
    expect(code, output).toBe(0);
    const total = /^ {2}\| Total: (\d+) passed, (\d+) failed/m.exec(output);
    expect(total, output).not.toBeNull();
    expect(Number(total![2]), output).toBe(0);
    expect(Number(total![1]), output).toBeGreaterThanOrEqual(2);
    return { authorizationUrl };
  }

  /** The audiences of the access tokens issued to the suite's client, oldest first. */
  async function audiences(): Promise<string[]> {
    const rows = await interop.system.db
      .selectFrom('access_tokens')
      .select(['audience'])
      .where('client_id', '=', clientId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => row.audience);
  }

  it(
    'RS-21 both scenarios pass: RFC 8414 metadata, and the code grant with PKCE through the real pages',
    async () => {
      const before = (await audiences()).length;
      const { authorizationUrl } = await passes([]);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizationUrl.searchParams.has('resource')).toBe(false);
      // RS-03: no `resource`, the Latchkey API's audience.
      expect((await audiences()).slice(before)).toEqual([LATCHKEY_API_TARGET.audience]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'RS-21 with --resource {API_URL}/mcp (RFC 8707, sent at authorize and token) both scenarios pass',
    async () => {
      const resource = `${interop.system.apiUrl}/mcp`;
      const before = (await audiences()).length;
      const { authorizationUrl } = await passes(['--resource', resource]);
      expect(authorizationUrl.searchParams.getAll('resource')).toEqual([resource]);
      // The API's /mcp is one of the Latchkey API's identifiers: its audience.
      expect((await audiences()).slice(before)).toEqual([LATCHKEY_API_TARGET.audience]);
    },
    TEST_TIMEOUT_MS,
  );
});
