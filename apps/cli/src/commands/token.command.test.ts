import { describe, expect, it } from 'vitest';
import { authenticateAccessToken, InvalidToken, systemClock } from '@latchkey/core';
import { adminTokenJson } from '@latchkey/contracts';
import { digest } from '@latchkey/credentials';
import { DAY, expectFailure, expectSuccess, OTHER, OWNER, useSeededSandbox } from '../cli.fixture.ts';

const sandbox = useSeededSandbox();
const cli = (args: string[], env?: Record<string, string>) => sandbox.run(args, env);

describe('admin CLI: token commands', () => {
  it('token create prints the token once (one year by default); the database holds only its digest', async () => {
    const before = Date.now();
    const run = await cli(['token', 'create', '--owner', OWNER, '--name', 'deploy']);
    expectSuccess(run);
    expect(run.json).toMatchObject({
      token: expect.stringMatching(/^lkp_[0-9A-Za-z]{36}$/),
      id: expect.stringMatching(/^tok_/),
      name: 'deploy',
      kind: 'pat',
      status: 'active',
      scopes: ['profile', 'email'],
    });
    const lifetime = Date.parse(run.json.expires_at) - Date.parse(run.json.created_at);
    expect(lifetime).toBe(365 * DAY);
    expect(Date.parse(run.json.created_at)).toBeGreaterThanOrEqual(before - 1000);
    const token: string = run.json.token;
    expect(run.json.last4).toBe(token.slice(-4));
    const bytes = sandbox.databaseBytes();
    expect(bytes.includes(digest(token))).toBe(true);
    expect(bytes.includes(token)).toBe(false);
    expect(bytes.includes(token.slice(4, 34))).toBe(false);
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, token)).resolves.toMatchObject({
        tokenId: run.json.id,
        kind: 'pat',
      });
    });
    const list = await cli(['token', 'list', '--owner', OWNER]);
    expectSuccess(list);
    expect(list.stdout).not.toContain(token);
    expect(list.json.find((t: { id: string }) => t.id === run.json.id)).toMatchObject({
      name: 'deploy',
      last4: token.slice(-4),
      status: 'active',
    });
    // Issue 16: the output is the contract's AdminTokenJson, every field of it and no other.
    for (const entry of list.json as unknown[]) expect(adminTokenJson.parse(entry)).toEqual(entry);
  });

  it('token create --expires-in-days N sets the expiry; a bad N exits 2 and creates nothing', async () => {
    const run = await cli(['token', 'create', '--owner', OTHER, '--name', 'month', '--expires-in-days', '30']);
    expectSuccess(run);
    expect(Date.parse(run.json.expires_at) - Date.parse(run.json.created_at)).toBe(30 * DAY);
    const before = (await cli(['token', 'list', '--owner', OTHER])).json;
    const [ghost, ...bad] = await Promise.all([
      cli(['token', 'create', '--owner', 'ghost@example.test', '--name', 'ghost']),
      ...['0', '1.5', 'soon', '99999'].map((days) =>
        cli(['token', 'create', '--owner', OTHER, '--name', 'bad', `--expires-in-days=${days}`]),
      ),
    ]);
    for (const run of bad) expectFailure(run, 2, /--expires-in-days/);
    expectFailure(ghost!, 1, /no user with email/);
    expect((await cli(['token', 'list', '--owner', OTHER])).json).toEqual(before);
  });

  it('SC-07 token create --scope (repeatable) gives the token those scopes, and token list shows them', async () => {
    const run = await cli(['token', 'create', '--owner', OWNER, '--name', 'names', '--scope', 'profile']);
    expectSuccess(run);
    expect(run.json.scopes).toEqual(['profile']);
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, run.json.token)).resolves.toMatchObject({
        scopes: ['profile'],
      });
    });
    const both = await cli([
      'token',
      'create',
      '--owner',
      OWNER,
      '--name',
      'both',
      '--scope',
      'email',
      '--scope=profile',
    ]);
    expectSuccess(both);
    expect(both.json.scopes).toEqual(['profile', 'email']);
    const list = (await cli(['token', 'list', '--owner', OWNER])).json as Array<{ id: string; scopes: string[] }>;
    expect(list.find((t) => t.id === run.json.id)!.scopes).toEqual(['profile']);
    expect(list.find((t) => t.id === both.json.id)!.scopes).toEqual(['profile', 'email']);
  });

  it('SC-07 OI-01 an unknown scope is a usage error (exit 2) naming it; `account` and `openid` are refused (exit 1); none creates a token', async () => {
    const before = (await cli(['token', 'list', '--owner', OTHER])).json;
    const [unknown, openid, empty, account] = await Promise.all([
      cli(['token', 'create', '--owner', OTHER, '--name', 'bad', '--scope', 'admin']),
      cli(['token', 'create', '--owner', OTHER, '--name', 'bad', '--scope', 'profile', '--scope', 'openid']),
      cli(['token', 'create', '--owner', OTHER, '--name', 'bad', '--scope']),
      cli(['token', 'create', '--owner', OTHER, '--name', 'bad', '--scope', 'account']),
    ]);
    expectFailure(unknown!, 2, /unknown scope "admin" \(expected profile or email; usage: token create/);
    expectFailure(openid!, 1, /cannot have the openid scope/);
    expectFailure(empty!, 2, /--scope/);
    expectFailure(account!, 1, /cannot have the account scope/);
    expect((await cli(['token', 'list', '--owner', OTHER])).json).toEqual(before);
  });

  it('token revoke stops the token at once (RV-01) and is idempotent (RV-07); an unknown id exits 1', async () => {
    const created = await cli(['token', 'create', '--owner', OTHER, '--name', 'short-lived']);
    const first = await cli(['token', 'revoke', created.json.id]);
    expectSuccess(first);
    expect(first.json).toMatchObject({ id: created.json.id, status: 'revoked', revoked_at: expect.any(String) });
    expect(first.stdout).not.toContain(created.json.token);
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, created.json.token)).rejects.toBeInstanceOf(InvalidToken);
    });
    const second = await cli(['token', 'revoke', created.json.id]);
    expectSuccess(second);
    expect(second.json).toEqual(first.json);
    expectFailure(await cli(['token', 'revoke', 'tok_nope']), 1, /No such token/);
    const list = await cli(['token', 'list', '--owner', OTHER]);
    expect(list.json.find((t: { id: string }) => t.id === created.json.id)).toMatchObject({ status: 'revoked' });
  });

  it('TR-11 token create --description stores it; token update <id> changes the name and description (`--description ""` clears it) and nothing else', async () => {
    const created = await cli([
      'token',
      'create',
      '--owner',
      OWNER,
      '--name',
      'ci',
      '--description',
      'Deploys from the CI runner',
      '--scope',
      'profile',
    ]);
    expectSuccess(created);
    expect(created.json).toMatchObject({ name: 'ci', description: 'Deploys from the CI runner' });
    const { token, ...before } = created.json;

    const renamed = await cli(['token', 'update', created.json.id, '--name', 'ci-main']);
    expectSuccess(renamed);
    expect(renamed.json).toEqual({ ...before, owner_email: undefined, name: 'ci-main' });
    expect(adminTokenJson.parse(renamed.json)).toEqual(renamed.json);
    expect(renamed.stdout).not.toContain(token);

    const described = await cli(['token', 'update', created.json.id, '--description', 'Main branch only']);
    expectSuccess(described);
    expect(described.json).toMatchObject({ name: 'ci-main', description: 'Main branch only' });

    const both = await cli(['token', 'update', created.json.id, '--name', 'ci', '--description=']);
    expectSuccess(both);
    expect(both.json).toMatchObject({ name: 'ci', description: null });
    // The value, scopes and expiry are the ones it was created with.
    expect(both.json).toMatchObject({ scopes: ['profile'], expires_at: before.expires_at, last4: before.last4 });
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, token)).resolves.toMatchObject({ tokenId: before.id });
    });
    const listed = (await cli(['token', 'list', '--owner', OWNER])).json.find(
      (t: { id: string }) => t.id === before.id,
    );
    expect(listed).toEqual(both.json);
  });

  it('TR-11 token update: no option is a usage error (exit 2); a bad description, an unknown id and a bad create --description fail with one line (exit 1) and change nothing', async () => {
    const created = await cli(['token', 'create', '--owner', OTHER, '--name', 'stable']);
    expectSuccess(created);
    const before = (await cli(['token', 'list', '--owner', OTHER])).json;
    const [nothing, noId, tooLong, unknown, createTooLong] = await Promise.all([
      cli(['token', 'update', created.json.id]),
      cli(['token', 'update', '--name', 'x']),
      cli(['token', 'update', created.json.id, '--name', 'renamed', '--description', 'x'.repeat(301)]),
      cli(['token', 'update', 'tok_nope', '--name', 'x']),
      cli(['token', 'create', '--owner', OTHER, '--name', 'wordy', '--description', 'x'.repeat(301)]),
    ]);
    expectFailure(nothing!, 2, /nothing to change \(usage: token update <id>/);
    expectFailure(noId!, 2, /usage: token update/);
    expectFailure(tooLong!, 1, /description: .*at most 300 characters/);
    expectFailure(unknown!, 1, /No such token/);
    expectFailure(createTooLong!, 1, /description: .*at most 300 characters/);
    expect((await cli(['token', 'list', '--owner', OTHER])).json).toEqual(before);
  });

  it('TR-11 token roll prints a new working value once, with the same name, description, scopes and lifetime; with the default overlap (none) the old value stops at once', async () => {
    const created = await cli([
      'token',
      'create',
      '--owner',
      OWNER,
      '--name',
      'rolling',
      '--description',
      'Nightly job',
      '--scope',
      'email',
      '--expires-in-days',
      '30',
    ]);
    expectSuccess(created);
    const rolled = await cli(['token', 'roll', created.json.id]);
    expectSuccess(rolled);
    expect(rolled.json).toMatchObject({
      token: expect.stringMatching(/^lkp_[0-9A-Za-z]{36}$/),
      id: expect.stringMatching(/^tok_/),
      name: 'rolling',
      description: 'Nightly job',
      kind: 'pat',
      status: 'active',
      scopes: ['email'],
      replaced_by: null,
      previous: { id: created.json.id, status: 'revoked', replaced_by: rolled.json.id },
    });
    expect(rolled.json.id).not.toBe(created.json.id);
    expect(rolled.json.token).not.toBe(created.json.token);
    expect(rolled.json.last4).toBe(rolled.json.token.slice(-4));
    expect(Date.parse(rolled.json.expires_at) - Date.parse(rolled.json.created_at)).toBe(30 * DAY);
    const { token: _value, previous, ...summary } = rolled.json;
    expect(adminTokenJson.parse(summary)).toEqual(summary);
    expect(adminTokenJson.parse(previous)).toEqual(previous);
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, rolled.json.token)).resolves.toMatchObject({
        tokenId: rolled.json.id,
        scopes: ['email'],
      });
      await expect(authenticateAccessToken(db, systemClock, created.json.token)).rejects.toBeInstanceOf(InvalidToken);
    });
    // Only the digest of the new value is stored, and the list never shows a value.
    expect(sandbox.databaseBytes().includes(rolled.json.token)).toBe(false);
    const list = await cli(['token', 'list', '--owner', OWNER]);
    expect(list.stdout).not.toContain(rolled.json.token);
    expect(list.json.find((t: { id: string }) => t.id === created.json.id)).toMatchObject({
      status: 'revoked',
      replaced_by: rolled.json.id,
    });
  });

  it('TR-11 token roll --overlap 1h: the old value keeps working until the overlap ends, shown as its expires_at', async () => {
    const created = await cli(['token', 'create', '--owner', OWNER, '--name', 'overlapping']);
    expectSuccess(created);
    const rolled = await cli(['token', 'roll', created.json.id, '--overlap', '1h']);
    expectSuccess(rolled);
    expect(rolled.json.previous).toMatchObject({
      id: created.json.id,
      status: 'active',
      revoked_at: null,
      replaced_by: rolled.json.id,
    });
    // One hour after the roll, which is when the new token was created.
    expect(Date.parse(rolled.json.previous.expires_at) - Date.parse(rolled.json.created_at)).toBe(60 * 60 * 1000);
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, created.json.token)).resolves.toMatchObject({
        tokenId: created.json.id,
      });
      await expect(authenticateAccessToken(db, systemClock, rolled.json.token)).resolves.toMatchObject({
        tokenId: rolled.json.id,
      });
    });
  });

  it('TR-11 token roll of a revoked, already rolled or unknown token fails with one line (exit 1) and makes no token', async () => {
    const [gone, live] = await Promise.all([
      cli(['token', 'create', '--owner', OTHER, '--name', 'gone']),
      cli(['token', 'create', '--owner', OTHER, '--name', 'live']),
    ]);
    expectSuccess(gone!);
    expectSuccess(live!);
    const [revokedFirst, rolledOnce] = await Promise.all([
      cli(['token', 'revoke', gone!.json.id]),
      cli(['token', 'roll', live!.json.id, '--overlap', '24h']),
    ]);
    expectSuccess(revokedFirst!);
    expectSuccess(rolledOnce!);
    const before = (await cli(['token', 'list', '--owner', OTHER])).json;
    const [revoked, again, unknown] = await Promise.all([
      cli(['token', 'roll', gone!.json.id]),
      cli(['token', 'roll', live!.json.id, '--overlap', 'none']),
      cli(['token', 'roll', 'tok_nope']),
    ]);
    expectFailure(revoked!, 1, /This token was revoked/);
    expectFailure(again!, 1, /already rolled/);
    expectFailure(unknown!, 1, /No such token/);
    expect((await cli(['token', 'list', '--owner', OTHER])).json).toEqual(before);
    await sandbox.withDb(async (db) => {
      // The old value of the first roll still works for its overlap: the refused roll changed nothing.
      await expect(authenticateAccessToken(db, systemClock, live!.json.token)).resolves.toMatchObject({
        tokenId: live!.json.id,
      });
    });
  });

  it('TR-11 token roll with a bad --overlap or without an id is a usage error (exit 2) naming the choices', async () => {
    const [badOverlap, empty, noId] = await Promise.all([
      cli(['token', 'roll', 'tok_any', '--overlap', '2h']),
      cli(['token', 'roll', 'tok_any', '--overlap=']),
      cli(['token', 'roll']),
    ]);
    expectFailure(
      badOverlap!,
      2,
      /--overlap must be none, 1h, 24h, 7d \(usage: token roll <id> \[--overlap none\|1h\|24h\|7d\]\)/,
    );
    expectFailure(empty!, 2, /--overlap must be none, 1h, 24h, 7d/);
    expectFailure(noId!, 2, /usage: token roll/);
  });

  it('TR-11 help lists token update and token roll with their options', async () => {
    const run = await cli(['help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('token create --owner <email> --name <name> [--description <text>]');
    expect(run.stdout).toContain('token update <id> [--name <name>] [--description <text>]');
    expect(run.stdout).toContain('token roll <id> [--overlap none|1h|24h|7d]');
  });
});
