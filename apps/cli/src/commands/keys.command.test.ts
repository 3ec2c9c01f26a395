import { describe, expect, it } from 'vitest';
import { perFile } from '#test/support/per-file.ts';
import { createSandbox, expectFailure, expectSuccess } from '../cli.fixture.ts';

// OI-09, OI-10: the ID token signing keys as operators manage them, through the CLI's own process.
const { sandbox } = perFile(
  async () => ({ sandbox: createSandbox() }),
  ({ sandbox }) => sandbox.remove(),
);
const cli = (args: string[]) => sandbox.run(args);
const HOUR = 60 * 60 * 1000;

interface KeyJson {
  kid: string;
  alg: string;
  status: string;
  created_at: string;
  signs_from: string;
  retired_at: string | null;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin CLI: keys commands', () => {
  it('OI-09 OI-10 keys list on a new database shows one signing key per algorithm: kid, alg, status and ISO times, never key material', async () => {
    const run = await cli(['keys', 'list']);
    expectSuccess(run);
    const keys = run.json as KeyJson[];
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'created_at', 'kid', 'retired_at', 'signs_from', 'status']);
      expect(key).toMatchObject({ status: 'signing', retired_at: null });
      expect(key.created_at).toMatch(ISO);
      expect(key.signs_from).toMatch(ISO);
    }
    // OI-09: the database holds the private halves sealed only.
    expect(sandbox.databaseBytes().toString('latin1')).not.toMatch(/"(d|p|q|dp|dq|qi)"\s*:/);
    // Listing again makes nothing new.
    expect((await cli(['keys', 'list'])).json).toEqual(keys);
  });

  it('OI-10 keys rotate publishes new keys that sign after 1 h; keys list then shows the old ones signing until then', async () => {
    const run = await cli(['keys', 'rotate']);
    expectSuccess(run);
    const rotated = run.json.rotated as KeyJson[];
    expect(rotated.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of rotated) {
      expect(key.status).toBe('next');
      expect(Date.parse(key.signs_from) - Date.parse(key.created_at)).toBe(HOUR);
    }
    const list = (await cli(['keys', 'list'])).json as KeyJson[];
    expect(list).toHaveLength(4);
    expect(run.json.keys).toEqual(list);
    const before = list.filter((key) => !rotated.some((k) => k.kid === key.kid));
    expect(before).toHaveLength(2);
    for (const old of before) {
      const successor = rotated.find((key) => key.alg === old.alg)!;
      expect(old).toMatchObject({ status: 'signing', retired_at: successor.signs_from });
    }
    for (const key of rotated) expect(list.find((k) => k.kid === key.kid)).toMatchObject({ status: 'next' });
  });

  it('OI-10 keys rotate --delay 0 (emergency): the new keys sign at once, every earlier key is retired now', async () => {
    const run = await cli(['keys', 'rotate', '--delay', '0']);
    expectSuccess(run);
    const rotated = run.json.rotated as KeyJson[];
    for (const key of rotated) expect(key).toMatchObject({ status: 'signing', signs_from: key.created_at });
    const list = (await cli(['keys', 'list'])).json as KeyJson[];
    const signing = list.filter((key) => key.status === 'signing');
    expect(signing.map((key) => key.kid).sort()).toEqual(rotated.map((key) => key.kid).sort());
    expect(list.filter((key) => key.status === 'retired')).toHaveLength(list.length - 2);
  });

  it('keys: a delay outside the list, an argument or an unknown action exits 2 before the database is opened; help lists both', async () => {
    const [bad, extra, unknown, help] = await Promise.all([
      cli(['keys', 'rotate', '--delay', '5m']),
      cli(['keys', 'list', 'now']),
      cli(['keys', 'remove']),
      cli(['help']),
    ]);
    expectFailure(bad!, 2, /--delay must be one of 0, 1h, 6h, 24h/);
    expectFailure(extra!, 2, /usage: keys list/);
    expectFailure(unknown!, 2, /unknown keys command "remove"/);
    expect(help!.stdout).toContain('keys list');
    expect(help!.stdout).toContain('keys rotate [--delay <0|1h|6h|24h>]');
  });
});
