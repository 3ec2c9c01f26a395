import { describe, expect, it } from 'vitest';
import { authenticateClient } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { expectFailure, expectSuccess, OTHER, OWNER, useSeededSandbox } from '../cli.fixture.ts';

const sandbox = useSeededSandbox();
const cli = (args: string[], env?: Record<string, string>) => sandbox.run(args, env);

describe('admin CLI: client commands', () => {
  it('client create --post-logout-redirect-uri registers where /oauth/logout may send the browser (SO-01)', async () => {
    const run = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Signs out',
      '--redirect-uri',
      'https://bye.example/cb',
      '--post-logout-redirect-uri',
      'https://bye.example/signed-out',
    ]);
    expectSuccess(run);
    expect(run.json).toMatchObject({ post_logout_redirect_uri: 'https://bye.example/signed-out' });
  });

  it('client create prints client_id and client_secret once; the database holds only a digest of the secret', async () => {
    const run = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Weather',
      '--redirect-uri',
      'https://weather.example/cb',
    ]);
    expectSuccess(run);
    expect(Object.keys(run.json).slice(0, 2)).toEqual(['client_id', 'client_secret']);
    expect(run.json).toMatchObject({
      client_id: expect.stringMatching(/^lkc_/),
      client_secret: expect.stringMatching(/^lks_[0-9A-Za-z]{36}$/),
      name: 'Weather',
      owner_email: OWNER,
      redirect_uri: 'https://weather.example/cb',
      post_logout_redirect_uri: null,
      require_pkce: false,
      first_party: false,
      status: 'active',
      revoked_at: null,
    });
    const secret: string = run.json.client_secret;
    const bytes = sandbox.databaseBytes();
    expect(bytes.includes(run.json.client_id)).toBe(true);
    expect(bytes.includes(digest(secret))).toBe(true);
    expect(bytes.includes(secret)).toBe(false);
    expect(bytes.includes(secret.slice(4, 34))).toBe(false);
    await sandbox.withDb(async (db) => {
      await expect(authenticateClient(db, run.json.client_id, secret)).resolves.toMatchObject({ name: 'Weather' });
    });

    const list = await cli(['client', 'list']);
    expectSuccess(list);
    expect(list.stdout).not.toContain(secret);
    expect(list.json.find((c: { client_id: string }) => c.client_id === run.json.client_id)).toMatchObject({
      name: 'Weather',
      owner_email: OWNER,
    });
  });

  it('client create --require-pkce marks the client', async () => {
    const run = await cli([
      'client',
      'create',
      '--owner',
      OTHER,
      '--name',
      'Native',
      '--redirect-uri',
      'http://127.0.0.1:8400/cb',
      '--require-pkce',
    ]);
    expectSuccess(run);
    expect(run.json.require_pkce).toBe(true);
  });

  it('client list --owner shows only that owner’s clients', async () => {
    const mine = await cli(['client', 'list', '--owner', OTHER]);
    expectSuccess(mine);
    expect(mine.json.length).toBeGreaterThan(0);
    expect(mine.json.every((c: { owner_email: string }) => c.owner_email === OTHER)).toBe(true);
    expectFailure(await cli(['client', 'list', '--owner', 'ghost@example.test']), 1, /no user with email/);
  });

  it('an invalid redirect URI (RU-09) or an unknown owner exits 1 and stores nothing', async () => {
    const before = (await cli(['client', 'list'])).json;
    const [plainHttp, fragment, ghost] = await Promise.all([
      cli(['client', 'create', '--owner', OWNER, '--name', 'Bad', '--redirect-uri', 'http://evil.example/cb']),
      cli(['client', 'create', '--owner', OWNER, '--name', 'Bad', '--redirect-uri', 'https://client.example/cb#frag']),
      cli([
        'client',
        'create',
        '--owner',
        'ghost@example.test',
        '--name',
        'Ghost',
        '--redirect-uri',
        'https://ghost.example/cb',
      ]),
    ]);
    expectFailure(plainHttp!, 1, /^error: redirect_uri: /);
    expectFailure(fragment!, 1, /^error: redirect_uri: .*fragment/);
    expectFailure(ghost!, 1, /no user with email "ghost@example.test"/);
    expect((await cli(['client', 'list'])).json).toEqual(before);
  });

  it('client revoke revokes (RV-03) and is idempotent (RV-07); an unknown client exits 1', async () => {
    const created = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Doomed',
      '--redirect-uri',
      'https://doomed.example/cb',
    ]);
    const first = await cli(['client', 'revoke', created.json.client_id]);
    expectSuccess(first);
    expect(first.json).toMatchObject({
      client_id: created.json.client_id,
      status: 'revoked',
      revoked_at: expect.any(String),
    });
    await sandbox.withDb(async (db) => {
      await expect(authenticateClient(db, created.json.client_id, created.json.client_secret)).rejects.toMatchObject({
        code: 'invalid_client',
      });
    });
    const second = await cli(['client', 'revoke', created.json.client_id]);
    expectSuccess(second);
    expect(second.json).toEqual(first.json);
    expectFailure(await cli(['client', 'revoke', 'lkc_nope']), 1, /No such client/);
  });

  it('CE-12 client create takes --redirect-uri repeated; client update replaces the list and sets the details', async () => {
    const created = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Two homes',
      '--redirect-uri',
      'https://app.example/cb',
      '--redirect-uri',
      'http://localhost:5173/cb',
      '--description',
      'Forecasts',
    ]);
    expectSuccess(created);
    expect(created.json).toMatchObject({
      redirect_uri: 'https://app.example/cb',
      redirect_uris: ['https://app.example/cb', 'http://localhost:5173/cb'],
      description: 'Forecasts',
      client_uri: null,
    });
    const id: string = created.json.client_id;
    const updated = await cli([
      'client',
      'update',
      id,
      '--name',
      'Moved',
      '--redirect-uri',
      'https://staging.app.example/cb',
      '--homepage',
      'https://app.example/',
      '--privacy-url',
      'https://app.example/privacy',
      '--terms-url',
      'https://app.example/terms',
      '--description',
      '',
    ]);
    expectSuccess(updated);
    expect(updated.json).toMatchObject({
      client_id: id,
      name: 'Moved',
      owner_email: OWNER,
      redirect_uri: 'https://staging.app.example/cb',
      redirect_uris: ['https://staging.app.example/cb'],
      description: null,
      client_uri: 'https://app.example/',
      policy_uri: 'https://app.example/privacy',
      tos_uri: 'https://app.example/terms',
      status: 'active',
    });
    expect(updated.stdout).not.toMatch(/lks_/);
    // Only what is given changes.
    const renamed = await cli(['client', 'update', id, '--name', 'Renamed']);
    expectSuccess(renamed);
    expect({ ...renamed.json, name: 'Moved' }).toEqual(updated.json);
  });

  it('CE-12 client update refuses a bad value (exit 1, naming the field) and changes nothing; usage errors exit 2', async () => {
    const created = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Steady',
      '--redirect-uri',
      'https://s.example/cb',
    ]);
    const id: string = created.json.client_id;
    const eleven = Array.from({ length: 11 }, (_, i) => ['--redirect-uri', `https://s${i}.example/cb`]).flat();
    expectFailure(await cli(['client', 'update', id, ...eleven]), 1, /^error: redirect_uris: .*at most 10/);
    expectFailure(
      await cli(['client', 'update', id, '--name', 'Ok', '--homepage', 'javascript:alert(1)']),
      1,
      /^error: client_uri: /,
    );
    expectFailure(await cli(['client', 'update', id]), 2, /nothing to change/);
    expectFailure(await cli(['client', 'update', '--name', 'x']), 2, /usage: client update/);
    expectFailure(await cli(['client', 'update', 'lkc_nope', '--name', 'x']), 1, /No such client/);
    const list = (await cli(['client', 'list'])).json as Array<{ client_id: string }>;
    expect(list.find((c) => c.client_id === id)).toEqual(
      expect.objectContaining({ name: 'Steady', redirect_uris: ['https://s.example/cb'], client_uri: null }),
    );
  });
});
