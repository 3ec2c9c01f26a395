// Issue 16 part 3: DATA_DIR/local-secrets.json is checked like the environment. A file cut
// short or edited by hand stops the start with a message naming the file and what is wrong,
// instead of a server running with an undefined session secret.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('local secrets (DATA_DIR/local-secrets.json)', () => {
  it('are generated once and read back unchanged', () => {
    dir = mkdtempSync(join(tmpdir(), 'latchkey-secrets-'));
    const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    const again = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    expect(again.sessionSecret).toBe(first.sessionSecret);
    expect(JSON.parse(readFileSync(join(dir, 'local-secrets.json'), 'utf8'))).toMatchObject({
      sessionSecret: first.sessionSecret,
    });
  });

  it('a file missing a secret, or with one too short, stops the start naming the file and the field', () => {
    dir = mkdtempSync(join(tmpdir(), 'latchkey-secrets-'));
    const file = join(dir, 'local-secrets.json');
    writeFileSync(file, JSON.stringify({ sessionSecret: 'short', portalClientId: 'lkc_x' }));
    const problems = problemsOf(() => loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }));
    expect(problems.some((p) => p.startsWith(`${file}: sessionSecret:`))).toBe(true);
    expect(problems.some((p) => p.startsWith(`${file}: portalClientSecret:`))).toBe(true);
    expect(problems.at(-1)).toMatch(/^Delete the file to generate new local secrets/);
  });

  it('a file cut short (not JSON) stops the start with the same advice', () => {
    dir = mkdtempSync(join(tmpdir(), 'latchkey-secrets-'));
    const file = join(dir, 'local-secrets.json');
    writeFileSync(file, '{"sessionSecret": "abc');
    const problems = problemsOf(() => loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }));
    expect(problems[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`));
    expect(problems.at(-1)).toMatch(/^Delete the file/);
  });
});
