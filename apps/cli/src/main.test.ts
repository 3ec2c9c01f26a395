// The admin CLI as operators run it, a child process (node main.ts): dispatch, usage errors
// and configuration errors. The command tests call the same runCli in process (cli.fixture.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, expectFailure, OWNER, type CliSandbox } from './cli.fixture.ts';

let sandbox: CliSandbox;
const cli = (args: string[], env?: Record<string, string>) => sandbox.run(args, env);

beforeAll(() => {
  sandbox = createSandbox({ process: true });
});

afterAll(() => {
  sandbox?.remove();
});

describe('admin CLI: dispatch and usage', () => {
  it('help prints the command list on stdout and exits 0', async () => {
    const run = await cli(['help']);
    expect(run.code).toBe(0);
    for (const command of [
      'user create',
      'user list',
      'client create',
      'client list',
      'client revoke',
      'client secret create',
      'client secret list',
      'client secret delete',
      '--public',
      'token create',
      'token list',
      'token revoke',
      'token update',
      'token roll',
      'grant list',
      'grant revoke',
      'audit list',
      'audit export',
      'purge',
      'migrate',
    ]) {
      expect(run.stdout).toContain(command);
    }
  });

  it('migrate applies every migration on a fresh database, then nothing on the next run', async () => {
    const fresh = createSandbox({ process: true });
    try {
      const first = await fresh.run(['migrate']);
      expect(first.code).toBe(0);
      expect(first.json.applied).toEqual(expect.arrayContaining(['2026_11_22_000000_create_schema']));
      expect(first.json.applied.length).toBeGreaterThanOrEqual(2);
      expect(fresh.hasDatabase()).toBe(true);
      const second = await fresh.run(['migrate']);
      expect(second.code).toBe(0);
      expect(second.json).toEqual({ applied: [] });
      const wrong = await fresh.run(['migrate', 'now']);
      expect(wrong.code).toBe(2);
    } finally {
      fresh.remove();
    }
  });

  it('bad input exits 2 with one line on stderr and creates no database (no SQLite file, no PostgreSQL schema)', async () => {
    const fresh = createSandbox({ process: true });
    try {
      const runs = await Promise.all([
        fresh.run([]),
        fresh.run(['frobnicate']),
        fresh.run(['user', 'promote']),
        fresh.run(['user', 'create', '--email', 'a@b.example', '--name', 'No Password']),
        fresh.run(['user', 'create', '--email', 'a@b.example', '--password', 'long enough', '--name']),
        fresh.run(['user', 'list', '--verbose']),
        fresh.run(['client', 'create', '--owner', OWNER, '--name', 'No URL']),
        fresh.run(['token', 'list']),
        fresh.run(['token', 'revoke', 'a', 'b']),
      ]);
      for (const run of runs) expectFailure(run, 2);
      expect(runs[0]!.stderr).toMatch(/no command/);
      expect(runs[1]!.stderr).toMatch(/unknown command "frobnicate"/);
      expect(runs[2]!.stderr).toMatch(/unknown user command "promote"/);
      expect(runs[3]!.stderr).toMatch(/missing --password/);
      expect(runs[4]!.stderr).toMatch(/--name <value>' argument missing/);
      expect(runs[5]!.stderr).toMatch(/--verbose/);
      expect(runs[6]!.stderr).toMatch(/missing --redirect-uri/);
      expect(runs[7]!.stderr).toMatch(/missing --owner/);
      expect(runs[8]!.stderr).toMatch(/expected 1 argument/);
      expect(fresh.hasDatabase()).toBe(false);
    } finally {
      fresh.remove();
    }
  });

  it('an invalid configuration exits 1 with one line naming the setting', async () => {
    expectFailure(await cli(['user', 'list'], { LOG_LEVEL: 'chatty' }), 1, /invalid configuration: LOG_LEVEL/);
  });
});
