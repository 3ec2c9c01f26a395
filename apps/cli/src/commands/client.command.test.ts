import { describe, expect, it } from 'vitest';
import {
  authenticateAccessToken,
  authenticateClient,
  blockClientHost,
  createClient,
  createClientSecret,
  findClient,
  findUserByEmail,
  isClientHostBlocked,
  issueAuthorizationCode,
  listBlockedClientHosts,
  redeemAuthorizationCode,
  requireUserByEmail,
  revokeClient,
  s256,
  systemClock,
} from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { insertSelfRegisteredClient } from '../../../auth/src/authorization/consent/self-registered.fixture.ts';
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
      public: false,
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

  it('PC-01 client create --public prints no secret; the client is public, requires PKCE and no secret authenticates it', async () => {
    const run = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Pocket',
      '--redirect-uri',
      'com.example.pocket:/callback',
      '--redirect-uri',
      'http://127.0.0.1/callback',
      '--public',
    ]);
    expectSuccess(run);
    expect(run.json).not.toHaveProperty('client_secret');
    expect(run.stdout).not.toMatch(/lks_/);
    expect(run.json).toMatchObject({
      client_id: expect.stringMatching(/^lkc_/),
      public: true,
      require_pkce: true,
      redirect_uris: ['com.example.pocket:/callback', 'http://127.0.0.1/callback'],
    });
    const id: string = run.json.client_id;
    await sandbox.withDb(async (db) => {
      expect(await db.selectFrom('client_secrets').selectAll().where('client_id', '=', id).execute()).toEqual([]);
      await expect(authenticateClient(db, id, 'lks_000000000000000000000000000000000000')).rejects.toMatchObject({
        code: 'invalid_client',
      });
    });
    expectFailure(await cli(['client', 'secret', 'create', id]), 1, /public client/);
    // PC-05: a private-use scheme is for public clients only.
    expectFailure(
      await cli(['client', 'create', '--owner', OWNER, '--name', 'Not public', '--redirect-uri', 'com.example.x:/cb']),
      1,
      /^error: redirect_uri: /,
    );
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

  it('DV-23 client create --device opts the client in to the device flow; without it, not', async () => {
    const args = ['client', 'create', '--owner', OTHER, '--name', 'Terminal', '--redirect-uri', 'http://127.0.0.1/cb'];
    const device = await cli([...args, '--public', '--device']);
    expectSuccess(device);
    expect(device.json.device_grant).toBe(true);
    const plain = await cli([...args, '--public']);
    expectSuccess(plain);
    expect(plain.json.device_grant).toBe(false);
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

  it('OI-20 client create --id-token-alg ES256 and client update --id-token-alg RS256; the printed client shows it; another value exits 2 and changes nothing', async () => {
    const plain = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Plain',
      '--redirect-uri',
      'https://p.example/cb',
    ]);
    expectSuccess(plain);
    expect(plain.json.id_token_signed_response_alg).toBe('RS256');
    const created = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Elliptic',
      '--redirect-uri',
      'https://e.example/cb',
      '--id-token-alg',
      'ES256',
    ]);
    expectSuccess(created);
    expect(created.json.id_token_signed_response_alg).toBe('ES256');
    const id: string = created.json.client_id;
    const storedAlg = () =>
      sandbox.withDb(async (db) => {
        const row = await db
          .selectFrom('clients')
          .select('id_token_signed_response_alg')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return row.id_token_signed_response_alg;
      });
    expect(await storedAlg()).toBe('ES256');

    // A usage error (exit 2), before the database is opened: one value each way keeps the CLI runs few.
    expectFailure(
      await cli(['client', 'update', id, '--id-token-alg', 'HS256']),
      2,
      /--id-token-alg must be RS256 or ES256/,
    );
    expectFailure(
      await cli([
        'client',
        'create',
        '--owner',
        OWNER,
        '--name',
        'Never',
        '--redirect-uri',
        'https://n.example/cb',
        '--id-token-alg',
        'none',
      ]),
      2,
      /--id-token-alg must be RS256 or ES256/,
    );
    expect(await storedAlg()).toBe('ES256');
    const list = (await cli(['client', 'list'])).json as Array<{ name: string }>;
    expect(list.filter((c) => c.name === 'Never')).toEqual([]);

    const updated = await cli(['client', 'update', id, '--id-token-alg', 'RS256']);
    expectSuccess(updated);
    expect(updated.json).toMatchObject({ client_id: id, name: 'Elliptic', id_token_signed_response_alg: 'RS256' });
    expect(await storedAlg()).toBe('RS256');
  });

  it('SR-09 client secret create and list: two live at once, the old one’s expiry chosen, a third refused', async () => {
    const created = await cli([
      'client',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Rolling',
      '--redirect-uri',
      'https://rolling.example/cb',
    ]);
    expectSuccess(created);
    expect(created.json).not.toHaveProperty('secret_last4');
    const id: string = created.json.client_id;
    const first: string = created.json.client_secret;

    const listed = await cli(['client', 'secret', 'list', id]);
    expectSuccess(listed);
    expect(listed.json).toEqual([
      {
        id: expect.stringMatching(/^cs_/),
        last4: first.slice(-4),
        created_at: expect.any(String),
        expires_at: null,
        last_used_at: null,
      },
    ]);

    const rotated = await cli(['client', 'secret', 'create', id, '--expires-in', '1h']);
    expectSuccess(rotated);
    expect(Object.keys(rotated.json)).toEqual(['client_id', 'client_secret', 'secret', 'secrets']);
    const second: string = rotated.json.client_secret;
    expect(second).toMatch(/^lks_[0-9A-Za-z]{36}$/);
    expect(rotated.json.secret).toMatchObject({ last4: second.slice(-4), expires_at: null });
    const [old, fresh] = rotated.json.secrets;
    expect(old.id).toBe(listed.json[0].id);
    expect(fresh).toEqual(rotated.json.secret);
    expect(Date.parse(old.expires_at) - Date.parse(fresh.created_at)).toBe(60 * 60 * 1000);
    expect(sandbox.databaseBytes().includes(second)).toBe(false);
    await sandbox.withDb(async (db) => {
      await expect(authenticateClient(db, id, first)).resolves.toMatchObject({ id });
      await expect(authenticateClient(db, id, second)).resolves.toMatchObject({ id });
    });

    // SR-05: last used, never the secrets; SR-02: a third is refused; SR-03: only 1h, 1d or 7d.
    const [afterUse, third, badExpiry] = await Promise.all([
      cli(['client', 'secret', 'list', id]),
      cli(['client', 'secret', 'create', id]),
      cli(['client', 'secret', 'create', id, '--expires-in', '2h']),
    ]);
    expect(afterUse!.stdout).not.toContain(first);
    expect(afterUse!.stdout).not.toContain(second);
    expect(afterUse!.json.map((s: { last_used_at: string | null }) => s.last_used_at)).toEqual([
      expect.any(String),
      expect.any(String),
    ]);
    expectFailure(third!, 1, /2 secrets/);
    expectFailure(badExpiry!, 2, /--expires-in must be 1h, 1d, 7d/);
  });

  it('SR-09 client secret delete: the deleted one stops working, the last one stays, a revoked client’s cannot change', async () => {
    const { id, first, second, oldId, newId } = await sandbox.withDb(async (db) => {
      const owner = await requireUserByEmail(db, OWNER);
      const created = await createClient(db, systemClock, {
        ownerId: owner.id,
        name: 'Deleting',
        redirectUris: ['https://deleting.example/cb'],
      });
      const clientId = created.client.id;
      const rotated = await createClientSecret(db, systemClock, clientId, undefined);
      const [old] = rotated.secrets;
      return {
        id: clientId,
        first: created.clientSecret,
        second: rotated.clientSecret,
        oldId: old!.id,
        newId: rotated.secret.id,
      };
    });
    const deleted = await cli(['client', 'secret', 'delete', id, oldId]);
    expectSuccess(deleted);
    expect(deleted.json).toEqual([expect.objectContaining({ id: newId, last4: second.slice(-4) })]);
    await sandbox.withDb(async (db) => {
      await expect(authenticateClient(db, id, first)).rejects.toMatchObject({ code: 'invalid_client' });
      await expect(authenticateClient(db, id, second)).resolves.toMatchObject({ id });
    });
    // SR-04: the last one stays; the deleted one is gone.
    const [last, again] = await Promise.all([
      cli(['client', 'secret', 'delete', id, newId]),
      cli(['client', 'secret', 'delete', id, oldId]),
    ]);
    expectFailure(last!, 1, /only secret/);
    expectFailure(again!, 1, /No such secret/);
    await sandbox.withDb((db) => revokeClient(db, systemClock, id));
    expectFailure(await cli(['client', 'secret', 'create', id]), 1, /revoked/);
  });

  it('SR-09 client secret usage errors exit 2; an unknown client exits 1', async () => {
    const runs = await Promise.all([
      cli(['client', 'secret', 'list', 'lkc_nope']),
      cli(['client', 'secret']),
      cli(['client', 'secret', 'rotate', 'lkc_x']),
      cli(['client', 'secret', 'list']),
      cli(['client', 'secret', 'create']),
      cli(['client', 'secret', 'delete', 'lkc_x']),
      cli(['client', 'secret', 'create', 'lkc_x', '--expires-in']),
    ]);
    const [unknown, ...usage] = runs;
    expectFailure(unknown!, 1, /No such client/);
    for (const run of usage) expectFailure(run, 2);
    expect(usage[0]!.stderr).toMatch(/unknown client secret command ""/);
    expect(usage[1]!.stderr).toMatch(/unknown client secret command "rotate"/);
    expect(usage[2]!.stderr).toMatch(/expected 1 argument \(usage: client secret list <client_id>\)/);
    expect(usage[3]!.stderr).toMatch(/usage: client secret create <client_id> \[--expires-in 1h\|1d\|7d\]/);
    expect(usage[4]!.stderr).toMatch(/expected 2 arguments \(usage: client secret delete <client_id> <secret_id>\)/);
    expect(usage[5]!.stderr).toMatch(/--expires-in/);
  });
});

describe('CM-17 CM-18 admin CLI: blocking the host of client ID metadata documents', () => {
  /** A client as its document would store it, and an access token of OWNER's issued to it. */
  async function selfRegistered(registration: 'metadata_document' | 'dynamic', id?: string) {
    return sandbox.withDb(async (db) => {
      const client = await insertSelfRegisteredClient(db, systemClock, { registration, id });
      const user = (await findUserByEmail(db, OWNER))!;
      const verifier = 'v'.repeat(43);
      const redirectUri = client.redirectUris[0]!;
      const code = await issueAuthorizationCode(db, systemClock, {
        client,
        userId: user.id,
        redirectUri,
        codeChallenge: s256(verifier),
      });
      const pair = await redeemAuthorizationCode(
        db,
        systemClock,
        { tokenTtlSeconds: 3600, refreshTokenTtlSeconds: 86_400 },
        { client, code, redirectUri, codeVerifier: verifier },
      );
      return { id: client.id, token: pair.accessToken };
    });
  }

  async function works(token: string): Promise<boolean> {
    return sandbox.withDb((db) =>
      authenticateAccessToken(db, systemClock, token).then(
        () => true,
        () => false,
      ),
    );
  }

  async function revokedAt(id: string): Promise<number | null> {
    return sandbox.withDb(async (db) => (await findClient(db, id))!.revokedAt);
  }

  it('CM-17 client block --host prints the host and the clients it revoked: every metadata-document client on that host, at once; others untouched', async () => {
    const onHost = await selfRegistered('metadata_document', 'https://blocked.example/client.json');
    const onPort = await selfRegistered('metadata_document', 'https://blocked.example:8443/agents/b.json');
    const elsewhere = await selfRegistered('metadata_document', 'https://fine.example/client.json');
    const subdomain = await selfRegistered('metadata_document', 'https://sub.blocked.example/client.json');
    const dynamic = await selfRegistered('dynamic');
    for (const client of [onHost, onPort, elsewhere, subdomain, dynamic]) expect(await works(client.token)).toBe(true);

    // Written as an operator might: any case, a trailing dot.
    const run = await cli(['client', 'block', '--host', 'Blocked.Example.']);
    expectSuccess(run);
    expect(run.json).toEqual({ host: 'blocked.example', blocked: true, revoked_clients: expect.any(Array) });
    expect([...run.json.revoked_clients].sort()).toEqual([onHost.id, onPort.id].sort());
    // Their tokens stop working with the next request (RV-03); nothing else changes.
    expect(await works(onHost.token)).toBe(false);
    expect(await works(onPort.token)).toBe(false);
    for (const client of [elsewhere, subdomain, dynamic]) {
      expect(await works(client.token), client.id).toBe(true);
      expect(await revokedAt(client.id), client.id).toBeNull();
    }
    expect(await sandbox.withDb((db) => isClientHostBlocked(db, 'blocked.example'))).toBe(true);
    expect(await sandbox.withDb((db) => isClientHostBlocked(db, 'sub.blocked.example'))).toBe(false);

    // client blocked: the hosts as JSON, each with when it was blocked.
    const list = await cli(['client', 'blocked']);
    expectSuccess(list);
    expect(list.json).toContainEqual({
      host: 'blocked.example',
      blocked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // Blocking again is harmless: nothing left to revoke.
    const again = await cli(['client', 'block', '--host', 'blocked.example']);
    expectSuccess(again);
    expect(again.json).toEqual({ host: 'blocked.example', blocked: true, revoked_clients: [] });
  });

  it('CM-18 an internationalized host is blocked in punycode; client unblock accepts a host again and its revoked clients stay revoked', async () => {
    const client = await selfRegistered('metadata_document', 'https://xn--mnchen-3ya.example/client.json');
    // An internationalized host is stored as URLs carry it: punycode.
    const blocked = await cli(['client', 'block', '--host', 'münchen.example']);
    expectSuccess(blocked);
    expect(blocked.json).toEqual({ host: 'xn--mnchen-3ya.example', blocked: true, revoked_clients: [client.id] });
    await sandbox.withDb((db) => blockClientHost(db, systemClock, 'unblock-me.example'));

    const unblocked = await cli(['client', 'unblock', '--host', 'MÜNCHEN.example']);
    expectSuccess(unblocked);
    expect(unblocked.json).toEqual({ host: 'xn--mnchen-3ya.example', blocked: false, was_blocked: true });
    const twice = await cli(['client', 'unblock', '--host', 'xn--mnchen-3ya.example']);
    expectSuccess(twice);
    expect(twice.json).toEqual({ host: 'xn--mnchen-3ya.example', blocked: false, was_blocked: false });
    const after = (await sandbox.withDb((db) => listBlockedClientHosts(db))).map((entry) => entry.host);
    expect(after).toContain('unblock-me.example');
    expect(after).not.toContain('xn--mnchen-3ya.example');
    // Unblocking does not bring back what the block revoked.
    expect(await revokedAt(client.id)).not.toBeNull();
    expect(await works(client.token)).toBe(false);
  });

  it('CM-18 a value that is not a bare host name exits 1 naming host and blocks nothing; usage errors exit 2', async () => {
    // Refused while parsing, before the database is opened (the cases: blocked-hosts.test.ts).
    const [url, port, missing, extra] = await Promise.all([
      cli(['client', 'block', '--host', 'https://app.example']),
      cli(['client', 'unblock', '--host', 'app.example:443']),
      cli(['client', 'block']),
      cli(['client', 'blocked', 'extra']),
    ]);
    for (const run of [url!, port!]) expectFailure(run, 1, /^error: host: host must be a host name/);
    expectFailure(missing!, 2, /missing --host \(usage: client block --host <host>\)/);
    expectFailure(extra!, 2, /usage: client blocked\)/);
    const hosts = ((await cli(['client', 'blocked'])).json as Array<{ host: string }>).map((entry) => entry.host);
    expect(hosts).not.toContain('app.example');
  });
});
