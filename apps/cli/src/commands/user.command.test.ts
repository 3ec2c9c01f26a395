import { describe, expect, it } from 'vitest';
import { authenticateAccessToken, InvalidToken, systemClock } from '@latchkey/core';
import { expectFailure, expectSuccess, OTHER, OWNER, useSeededSandbox } from '../cli.fixture.ts';

const sandbox = useSeededSandbox();
const cli = (args: string[], env?: Record<string, string>) => sandbox.run(args, env);

describe('admin CLI: user commands', () => {
  it('user create prints the new user; user list shows every user', async () => {
    const created = await cli([
      'user',
      'create',
      '--email',
      '  New@Example.TEST ',
      '--password',
      'a fine password',
      '--name',
      'Nia New',
    ]);
    expectSuccess(created);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'new@example.test',
      name: 'Nia New',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const list = await cli(['user', 'list']);
    expectSuccess(list);
    expect(list.json.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining([OWNER, OTHER, 'new@example.test']),
    );
    expect(list.stdout).not.toMatch(/password|scrypt/i);
    expect(sandbox.databaseBytes().includes('a fine password')).toBe(false);
  });

  it('a duplicate email, an invalid email or a short password exits 1 and adds nobody', async () => {
    const before = (await cli(['user', 'list'])).json;
    const [duplicate, badEmail, shortPassword] = await Promise.all([
      cli(['user', 'create', '--email', OWNER.toUpperCase(), '--password', 'whatever lagoon 123', '--name', 'Dup']),
      cli(['user', 'create', '--email', 'not-an-email', '--password', 'whatever lagoon 123', '--name', 'Bad']),
      cli(['user', 'create', '--email', 'short@example.test', '--password', 'short', '--name', 'Short']),
    ]);
    expectFailure(duplicate!, 1, /already exists/);
    expectFailure(badEmail!, 1, /^error: email: /);
    expectFailure(shortPassword!, 1, /^error: password: /);
    expect((await cli(['user', 'list'])).json).toEqual(before);
  });

  it('user delete removes the user and their tokens stop working; an unknown email exits 1', async () => {
    expectSuccess(
      await cli([
        'user',
        'create',
        '--email',
        'leaver@example.test',
        '--password',
        'goodbye quiet harbour',
        '--name',
        'Lee Leaver',
      ]),
    );
    const token = await cli(['token', 'create', '--owner', 'leaver@example.test', '--name', 'orphan']);
    expectSuccess(token);
    const deleted = await cli(['user', 'delete', 'leaver@example.test']);
    expectSuccess(deleted);
    expect(deleted.json).toMatchObject({ deleted: true, email: 'leaver@example.test' });
    expect((await cli(['user', 'list'])).json.map((u: { email: string }) => u.email)).not.toContain(
      'leaver@example.test',
    );
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, token.json.token)).rejects.toBeInstanceOf(InvalidToken);
    });
    expectFailure(await cli(['user', 'delete', 'leaver@example.test']), 1, /no user with email "leaver@example.test"/);
  });
});
