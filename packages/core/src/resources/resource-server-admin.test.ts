// Issue 31: registering resource servers (RS-07) and revoking one (RS-09), through core over a real
// database (SQLite; PostgreSQL in node-pg).
import { describe, expect, it } from 'vitest';
import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import { anOutage, FaultInjector } from '#test/support/faults.ts';
import { perFile } from '#test/support/per-file.ts';
import { useTestDatabase } from '#test/support/test-database.ts';
import { issueAuthorizationCode, redeemAuthorizationCode } from '../authorization/codes.service.ts';
import { ManualClock } from '../clock.ts';
import { createClient } from '../clients/clients.service.ts';
import { Conflict, InvalidGrant, InvalidTarget, InvalidToken, NotFound, ValidationFailed } from '../errors.ts';
import { authenticateAccessToken, createPersonalAccessToken } from '../tokens/access-tokens.service.ts';
import { refreshTokens } from '../tokens/refresh.service.ts';
import { createUser } from '../users/users.service.ts';
import { createResourceServer, listResourceServers, revokeResourceServer } from './resource-server-admin.service.ts';
import { resolveResource } from './resource-server.ts';

const API_URL = 'https://api.latchkey.example';
const lifetimes = { tokenTtlSeconds: 3600, refreshTokenTtlSeconds: 86_400 };
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const db = useTestDatabase();
const { user, client } = perFile(async () => {
  const user = await createUser(db, clock, {
    email: 'ada@example.test',
    password: 'quiet lantern meadow',
    name: 'Ada',
  });
  const { client } = await createClient(db, clock, {
    ownerId: user.id,
    name: 'Dashboard',
    redirectUris: ['https://dashboard.example/cb'],
  });
  return { user, client };
});

let registered = 0;
/** A fresh, valid registration: each test gets URIs no other test used. */
function register(
  uri = `https://rs${++registered}.example/api`,
  name = 'Reports',
  scopes?: Parameters<typeof createResourceServer>[3]['scopes'],
) {
  return createResourceServer(db, clock, API_URL, { uri, name, scopes });
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a refusal'),
    (err: unknown) => err,
  );
}

/** A code for `audience` (the API's when unset), and the pair it gives. */
async function pairFor(audience?: string) {
  const code = await issueAuthorizationCode(db, clock, {
    client,
    userId: user.id,
    redirectUri: 'https://dashboard.example/cb',
    codeChallenge: null,
    audience,
  });
  const pair = await redeemAuthorizationCode(db, clock, lifetimes, {
    client,
    code,
    redirectUri: 'https://dashboard.example/cb',
    codeVerifier: undefined,
  });
  return { code, pair };
}

describe('RS-07 registering a resource server', () => {
  it('RS-07 create stores the normalised URI, the trimmed name and profile email by default; list shows it', async () => {
    const server = await register('HTTPS://Reports.Example:443', '  Reports API  ');
    expect(server).toEqual({
      id: expect.stringMatching(/^rs_[0-9A-Za-z]{20}$/),
      uri: 'https://reports.example/',
      name: 'Reports API',
      scopes: ['profile', 'email'],
      createdAt: clock.now(),
      revokedAt: null,
    });
    expect((await listResourceServers(db)).find((s) => s.id === server.id)).toEqual(server);
    // RS-01: the registered URI is now a `resource`, with or without the trailing slash.
    await expect(resolveResource(db, API_URL, 'https://reports.example')).resolves.toEqual({
      audience: server.id,
      server,
    });
  });

  it('RS-07 RS-08 --scope narrows its scopes to third-party ones; openid, account and none are refused', async () => {
    expect((await register(undefined, 'Profiles', ['profile'])).scopes).toEqual(['profile']);
    for (const scopes of [['openid'], ['account'], ['profile', 'account'], []] as const) {
      const error = await refusal(register(undefined, 'Wide', scopes));
      expect(error, scopes.join()).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).field).toBe('scope');
    }
  });

  it('RS-07 https, or http on 127.0.0.1, [::1] or localhost only; no fragment, no credentials, not relative', async () => {
    for (const uri of ['http://127.0.0.1:8080/api', 'http://[::1]:9000', 'http://localhost:3001/v1']) {
      await expect(register(uri), uri).resolves.toMatchObject({ uri: new URL(uri).href });
    }
    const refused = [
      'http://reports.example/api',
      'http://127.0.0.2/api',
      'http://localhost.example/api',
      'https://reports.example/api#top',
      'https://reports.example/api#',
      'https://user:pw@reports.example/api',
      'https://user@reports.example/api',
      'ftp://reports.example/api',
      'urn:example:reports',
      '/api',
      'reports.example',
      '',
      'https://reports.\u0000example',
    ];
    for (const uri of refused) {
      const error = await refusal(register(uri));
      expect(error, JSON.stringify(uri)).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).field).toBe('uri');
      expect((error as ValidationFailed).description).not.toContain(uri || '\u0001');
    }
  });

  it("RS-07 the Latchkey API's own URIs, in any spelling, are a Conflict; so is a URI already registered", async () => {
    for (const uri of [
      API_URL,
      `${API_URL}/`,
      `${API_URL}/graphql`,
      `${API_URL}/mcp`,
      'HTTPS://API.latchkey.example:443',
    ]) {
      expect(await refusal(register(uri)), uri).toBeInstanceOf(Conflict);
    }
    const first = await register('https://unique.example/api');
    const again = await refusal(register('https://UNIQUE.example:443/api', 'Other name'));
    expect(again).toBeInstanceOf(Conflict);
    // Another path on the same host is another resource server.
    await expect(register('https://unique.example/api/v2')).resolves.toMatchObject({
      uri: 'https://unique.example/api/v2',
    });
    expect((await listResourceServers(db)).filter((s) => s.uri === first.uri)).toHaveLength(1);
  });

  it('RS-07 the name is 1 to 100 visible characters', async () => {
    for (const name of ['', '   ', 'x'.repeat(101), 'Evil\u202eAPI', 'Tab\tName']) {
      const error = await refusal(register(undefined, name));
      expect(error, JSON.stringify(name)).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).field).toBe('name');
    }
    await expect(register(undefined, 'x'.repeat(100))).resolves.toMatchObject({ name: 'x'.repeat(100) });
  });
});

describe('RS-09 revoking a resource server', () => {
  it('RS-09 revokes its live tokens, refuses its refresh tokens, spends its codes, and its URI becomes invalid_target; the API keeps its tokens', async () => {
    const server = await register('https://billing.example/api', 'Billing');
    const other = await register('https://ledger.example/api', 'Ledger');
    const mine = await pairFor(server.id);
    const pending = await issueAuthorizationCode(db, clock, {
      client,
      userId: user.id,
      redirectUri: 'https://dashboard.example/cb',
      codeChallenge: null,
      audience: server.id,
    });
    const api = await pairFor();
    const ledger = await pairFor(other.id);
    const pat = await createPersonalAccessToken(db, clock, 3600, { userId: user.id, name: 'ci' });
    await expect(authenticateAccessToken(db, clock, mine.pair.accessToken)).resolves.toMatchObject({
      audience: server.id,
    });

    clock.advance(1000);
    const revoked = await revokeResourceServer(db, clock, server.id);
    expect(revoked).toEqual({ ...server, revokedAt: clock.now() });

    await expect(authenticateAccessToken(db, clock, mine.pair.accessToken)).rejects.toBeInstanceOf(InvalidToken);
    await expect(refreshTokens(db, clock, lifetimes, client, mine.pair.refreshToken)).rejects.toBeInstanceOf(
      InvalidGrant,
    );
    await expect(
      redeemAuthorizationCode(db, clock, lifetimes, {
        client,
        code: pending,
        redirectUri: 'https://dashboard.example/cb',
        codeVerifier: undefined,
      }),
    ).rejects.toBeInstanceOf(InvalidGrant);
    await expect(resolveResource(db, API_URL, 'https://billing.example/api')).rejects.toBeInstanceOf(InvalidTarget);

    // The Latchkey API's tokens, personal ones included, and another resource server's are untouched.
    await expect(authenticateAccessToken(db, clock, api.pair.accessToken)).resolves.toMatchObject({
      audience: LATCHKEY_API_AUDIENCE,
    });
    await expect(authenticateAccessToken(db, clock, pat.token)).resolves.toMatchObject({
      audience: LATCHKEY_API_AUDIENCE,
    });
    await expect(authenticateAccessToken(db, clock, ledger.pair.accessToken)).resolves.toMatchObject({
      audience: other.id,
    });
    await expect(refreshTokens(db, clock, lifetimes, client, api.pair.refreshToken)).resolves.toMatchObject({
      accessToken: expect.any(String),
    });
    await expect(resolveResource(db, API_URL, 'https://ledger.example/api')).resolves.toMatchObject({
      audience: other.id,
    });
    expect((await listResourceServers(db)).find((s) => s.id === server.id)).toMatchObject({
      revokedAt: clock.now(),
    });
  });

  it('RS-09 revoking again keeps the first time and sweeps again; an unknown id is NotFound', async () => {
    const server = await register();
    const first = await revokeResourceServer(db, clock, server.id);
    // A grant issued for it after the revocation (an authorization already past its resource check).
    const late = await pairFor(server.id);
    clock.advance(5000);
    const second = await revokeResourceServer(db, clock, server.id);
    expect(second.revokedAt).toBe(first.revokedAt);
    await expect(authenticateAccessToken(db, clock, late.pair.accessToken)).rejects.toBeInstanceOf(InvalidToken);
    for (const id of ['rs_unknown', '', 'rs_\u0000']) {
      expect(await refusal(revokeResourceServer(db, clock, id)), JSON.stringify(id)).toBeInstanceOf(NotFound);
    }
  });

  it("RS-09 a revoked server's URI may be registered again: a new server, whose audience the old tokens do not have", async () => {
    const server = await register('https://retired.example/api');
    const { pair } = await pairFor(server.id);
    await revokeResourceServer(db, clock, server.id);
    const again = await register('https://retired.example/api');
    expect(again.id).not.toBe(server.id);
    await expect(resolveResource(db, API_URL, 'https://retired.example/api')).resolves.toMatchObject({
      audience: again.id,
    });
    await expect(authenticateAccessToken(db, clock, pair.accessToken)).rejects.toBeInstanceOf(InvalidToken);
    // Live twice is still a conflict.
    expect(await refusal(register('https://retired.example/api'))).toBeInstanceOf(Conflict);
  });

  it('RS-09 is one transaction: when revoking its tokens fails, the server and its tokens stay as they were', async () => {
    const faults = new FaultInjector();
    const faulty = db.withPlugin(faults);
    const server = await register('https://atomic.example/api');
    const { pair } = await pairFor(server.id);
    faults.failQueriesOn('access_tokens', anOutage);
    try {
      await expect(revokeResourceServer(faulty, clock, server.id)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      faults.clear();
    }
    await expect(resolveResource(db, API_URL, 'https://atomic.example/api')).resolves.toMatchObject({
      audience: server.id,
    });
    await expect(authenticateAccessToken(db, clock, pair.accessToken)).resolves.toMatchObject({ audience: server.id });
    await expect(refreshTokens(db, clock, lifetimes, client, pair.refreshToken)).resolves.toMatchObject({
      accessToken: expect.any(String),
    });
  });
});
