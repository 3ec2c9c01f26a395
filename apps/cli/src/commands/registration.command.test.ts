import { describe, expect, it } from 'vitest';
import { InvalidToken, systemClock, verifyRegistrationToken } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { createSandbox, DAY, expectFailure, expectSuccess, useSeededSandbox } from '../cli.fixture.ts';

// DR-07, DR-08: the initial access tokens for DYNAMIC_CLIENT_REGISTRATION=token, as operators
// manage them, through the CLI's own process.
const sandbox = useSeededSandbox();

interface RegistrationTokenJson {
  id: string;
  label: string;
  last4: string;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  token?: string;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin CLI: registration token commands', () => {
  it('DR-07 registration token create prints the token once (lki_), its id, label and expiry; list shows it without the value', async () => {
    const run = await sandbox.run([
      'registration',
      'token',
      'create',
      '--label',
      ' Hosted agents ',
      '--expires-in',
      '30',
    ]);
    expectSuccess(run);
    const created = run.json as RegistrationTokenJson;
    expect(Object.keys(created)).toEqual([
      'id',
      'label',
      'last4',
      'status',
      'created_at',
      'expires_at',
      'revoked_at',
      'token',
    ]);
    expect(created).toEqual({
      id: expect.stringMatching(/^iat_[0-9A-Za-z]{20}$/),
      label: 'Hosted agents',
      last4: created.token!.slice(-4),
      status: 'active',
      created_at: expect.stringMatching(ISO),
      expires_at: expect.stringMatching(ISO),
      revoked_at: null,
      token: expect.stringMatching(/^lki_[0-9A-Za-z]{36}$/),
    });
    expect(Date.parse(created.expires_at!) - Date.parse(created.created_at)).toBe(30 * DAY);
    const plain = await sandbox.run(['registration', 'token', 'create']);
    expectSuccess(plain);
    expect(plain.json).toMatchObject({ label: '', expires_at: null, status: 'active' });

    const list = await sandbox.run(['registration', 'token', 'list']);
    expectSuccess(list);
    const { token, ...listed } = created;
    expect(list.json).toEqual(expect.arrayContaining([listed]));
    expect(list.stdout).not.toContain(token!);
    // What the registration endpoint checks accepts it.
    await sandbox.withDb(async (db) => {
      await expect(verifyRegistrationToken(db, systemClock, token!)).resolves.toMatchObject({ id: created.id });
    });
    // DR-17: only its digest is stored.
    const bytes = sandbox.databaseBytes().toString('latin1');
    expect(bytes).not.toContain(token!);
    expect(bytes).toContain(digest(token!));
  });

  it('DR-08 registration token revoke: refused from then on; again keeps the time; an unknown id exits 1', async () => {
    const created = (await sandbox.run(['registration', 'token', 'create', '--label', 'to revoke']))
      .json as RegistrationTokenJson;
    const run = await sandbox.run(['registration', 'token', 'revoke', created.id]);
    expectSuccess(run);
    const { token, ...rest } = created;
    expect(run.json).toEqual({ ...rest, status: 'revoked', revoked_at: expect.stringMatching(ISO) });
    await sandbox.withDb(async (db) => {
      await expect(verifyRegistrationToken(db, systemClock, token!)).rejects.toBeInstanceOf(InvalidToken);
    });
    const again = await sandbox.run(['registration', 'token', 'revoke', created.id]);
    expectSuccess(again);
    expect(again.json).toEqual(run.json);
    expectFailure(await sandbox.run(['registration', 'token', 'revoke', 'iat_nope']), 1, /No such registration token/);
    expectFailure(await sandbox.run(['registration', 'token', 'create', '--label', 'a\u202Eb']), 1, /^error: label: /);
  });

  it('DR-07 bad input exits 2 before the database is opened; help lists the commands', async () => {
    const fresh = createSandbox();
    try {
      const [zero, words, tooLong, unknownFlag, noId, unknownAction, unknownCommand, help] = await Promise.all([
        fresh.run(['registration', 'token', 'create', '--expires-in', '0']),
        fresh.run(['registration', 'token', 'create', '--expires-in', 'ten']),
        fresh.run(['registration', 'token', 'create', '--expires-in', '99999']),
        fresh.run(['registration', 'token', 'create', '--owner', 'x']),
        fresh.run(['registration', 'token', 'revoke']),
        fresh.run(['registration', 'token', 'delete', 'iat_x']),
        fresh.run(['registration', 'client', 'list']),
        fresh.run(['help']),
      ]);
      for (const run of [zero!, words!, tooLong!]) expectFailure(run, 2, /--expires-in must be a whole number of days/);
      expectFailure(unknownFlag!, 2, /usage: registration token create/);
      expectFailure(noId!, 2, /usage: registration token revoke <id>/);
      expectFailure(unknownAction!, 2, /unknown registration token command "delete"/);
      expectFailure(unknownCommand!, 2, /unknown registration command "client"/);
      expect(fresh.hasDatabase()).toBe(false);
      for (const line of [
        'registration token create [--label <text>] [--expires-in <days>]',
        'registration token list',
        'registration token revoke <id>',
      ]) {
        expect(help!.stdout).toContain(line);
      }
    } finally {
      fresh.remove();
    }
  });
});
