import { describe, expect, it } from 'vitest';
import {
  authenticateAccessToken,
  createClient,
  createResourceServer,
  InvalidTarget,
  InvalidToken,
  issueAuthorizationCode,
  listResourceServers,
  redeemAuthorizationCode,
  requireUserByEmail,
  resolveResource,
  systemClock,
} from '@latchkey/core';
import { createSandbox, expectFailure, expectSuccess, OWNER, useSeededSandbox } from '../cli.fixture.ts';

// RS-07, RS-09: resource servers as operators manage them, through the CLI's own process.
const sandbox = useSeededSandbox();
const API_URL = 'https://api.latchkey.test';
const cli = (args: string[]) => sandbox.run(args, { API_URL });

interface ResourceServerJson {
  id: string;
  uri: string;
  name: string;
  scopes: string[];
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('admin CLI: resource commands', () => {
  it('RS-07 resource create prints the server: id (its audience), the normalised uri, name, default scopes; list shows it', async () => {
    const [run, narrow] = await Promise.all([
      cli(['resource', 'create', '--uri', 'HTTPS://Reports.Example:443/api', '--name', ' Reports ']),
      cli([
        'resource',
        'create',
        '--uri',
        'http://127.0.0.1:8080/',
        '--name',
        'Local',
        '--scope',
        'profile',
        '--scope',
        'profile',
      ]),
    ]);
    expectSuccess(run!);
    const created = run!.json as ResourceServerJson;
    expect(Object.keys(created)).toEqual(['id', 'uri', 'name', 'scopes', 'status', 'created_at', 'revoked_at']);
    expect(created).toEqual({
      id: expect.stringMatching(/^rs_[0-9A-Za-z]{20}$/),
      uri: 'https://reports.example/api',
      name: 'Reports',
      scopes: ['profile', 'email'],
      status: 'active',
      created_at: expect.stringMatching(ISO),
      revoked_at: null,
    });
    expectSuccess(narrow!);
    expect(narrow!.json).toMatchObject({ uri: 'http://127.0.0.1:8080/', scopes: ['profile'] });

    const list = await cli(['resource', 'list']);
    expectSuccess(list);
    expect(list.json).toEqual(expect.arrayContaining([created, narrow!.json]));
  });

  it("RS-07 refused with exit 1: plain http off loopback, a fragment or credentials, the API's own URIs, a URI already live, account", async () => {
    await sandbox.withDb((db) =>
      createResourceServer(db, systemClock, API_URL, { uri: 'https://taken.example/api', name: 'Taken' }),
    );
    // A few of each kind: core's own test (resource-server-admin.test.ts) goes through every rule.
    const cases: Array<[string[], RegExp]> = [
      [['--uri', 'http://reports.example/api'], /^error: uri: .*https/],
      [['--uri', 'https://me:pw@reports.example/api#x'], /^error: uri: /],
      [['--uri', `${API_URL}/graphql`], /Latchkey API's own/],
      [['--uri', 'https://TAKEN.example:443/api'], /already registered/],
      [['--uri', 'https://other.example', '--scope', 'account'], /^error: scope: /],
    ];
    const runs = await Promise.all(cases.map(([flags]) => cli(['resource', 'create', '--name', 'Refused', ...flags])));
    runs.forEach((run, i) => expectFailure(run, 1, cases[i]![1]));
    // Nothing of them was stored.
    const stored = await sandbox.withDb((db) => listResourceServers(db));
    expect(stored.filter((server) => server.name === 'Refused')).toEqual([]);
  });

  it('RS-07 RS-09 resource revoke: its tokens are refused and its URI is invalid_target at once; again keeps the time; unknown id exits 1', async () => {
    const created = (await cli(['resource', 'create', '--uri', 'https://billing.example', '--name', 'Billing']))
      .json as ResourceServerJson;
    // A token for it, as the token endpoint would issue it after a request naming its URI.
    const token = await sandbox.withDb(async (db) => {
      const owner = await requireUserByEmail(db, OWNER);
      const { client } = await createClient(db, systemClock, {
        ownerId: owner.id,
        name: 'Billing UI',
        redirectUris: ['https://billing-ui.example/cb'],
      });
      const target = await resolveResource(db, API_URL, 'https://billing.example');
      expect(target.audience).toBe(created.id);
      const code = await issueAuthorizationCode(db, systemClock, {
        client,
        userId: owner.id,
        redirectUri: 'https://billing-ui.example/cb',
        codeChallenge: null,
        audience: target.audience,
      });
      const pair = await redeemAuthorizationCode(
        db,
        systemClock,
        { tokenTtlSeconds: 3600, refreshTokenTtlSeconds: 86_400 },
        { client, code, redirectUri: 'https://billing-ui.example/cb', codeVerifier: undefined },
      );
      await expect(authenticateAccessToken(db, systemClock, pair.accessToken)).resolves.toMatchObject({
        audience: created.id,
      });
      return pair.accessToken;
    });

    const run = await cli(['resource', 'revoke', created.id]);
    expectSuccess(run);
    expect(run.json).toEqual({ ...created, status: 'revoked', revoked_at: expect.stringMatching(ISO) });
    await sandbox.withDb(async (db) => {
      await expect(authenticateAccessToken(db, systemClock, token)).rejects.toBeInstanceOf(InvalidToken);
      await expect(resolveResource(db, API_URL, 'https://billing.example/')).rejects.toBeInstanceOf(InvalidTarget);
    });
    const [again, list, unknown] = await Promise.all([
      cli(['resource', 'revoke', created.id]),
      cli(['resource', 'list']),
      cli(['resource', 'revoke', 'rs_nope']),
    ]);
    expectSuccess(again!);
    expect(again!.json).toEqual(run.json);
    expect((list!.json as ResourceServerJson[]).find((s) => s.id === created.id)).toEqual(run.json);
    expectFailure(unknown!, 1, /No such resource server/);
  });

  it('RS-07 bad input exits 2 before the database is opened: unknown scope, a missing flag or argument, unknown action; help lists the commands', async () => {
    const fresh = createSandbox();
    try {
      const runs = await Promise.all([
        fresh.run(['resource', 'create', '--uri', 'https://a.example', '--name', 'A', '--scope', 'admin']),
        fresh.run(['resource', 'create', '--name', 'A']),
        fresh.run(['resource', 'revoke']),
        fresh.run(['resource', 'delete', 'rs_x']),
        fresh.run(['help']),
      ]);
      const [scope, noUri, noId, unknown, help] = runs;
      expectFailure(scope!, 2, /unknown scope "admin" \(expected profile or email; usage: resource create/);
      expectFailure(noUri!, 2, /missing --uri/);
      expectFailure(noId!, 2, /usage: resource revoke <id>/);
      expectFailure(unknown!, 2, /unknown resource command "delete"/);
      expect(fresh.hasDatabase()).toBe(false);
      for (const line of [
        'resource create --uri <uri> --name <name> [--scope <profile|email>]...',
        'resource list',
        'resource revoke <id>',
      ]) {
        expect(help!.stdout).toContain(line);
      }
    } finally {
      fresh.remove();
    }
  });
});
