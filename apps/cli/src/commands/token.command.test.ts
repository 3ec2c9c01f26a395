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
});
