import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digest } from '@latchkey/credentials';
import { createDatabase, sqlitePathFor, type Db } from '@latchkey/db';
import { useUsers } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  readSessionTokens,
  sessionIdOf,
  setCookieLine,
  startSecondBff,
  storedSession,
  usePortalSystem,
} from '#test/support/portal-system.ts';
import { testEngine } from '#test/support/test-database.ts';
import { SESSION_TTL_MS } from './portal-session.ts';
import { reservedPort } from '#test/support/loopback.ts';
import { alterChar } from '#test/support/tamper.ts';

const system = usePortalSystem();
const { user } = useUsers(system, { user: 'Barbara Liskov' });

async function signedIn(): Promise<PortalBrowser> {
  const browser = new PortalBrowser(system);
  const done = await browser.signIn(user);
  if (done.status !== 302) throw new Error(`sign-in failed: ${done.status}`);
  return browser;
}

async function sessionRow(browser: PortalBrowser) {
  return system.db
    .selectFrom('sessions')
    .selectAll()
    .where('sid', '=', `portal:${sessionIdOf(browser.sessionCookie()!)}`)
    .executeTakeFirst();
}

/** Refreshes with the portal's own credentials, as the BFF would, straight at the token endpoint. */
async function refreshDirectly(refreshToken: string): Promise<{ status: number; error?: string }> {
  const response = await fetch(`${system.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: system.config.portal.clientId,
      client_secret: system.config.portal.clientSecret,
    }),
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, ...(body.error ? { error: body.error } : {}) };
}

describe('GET /bff/session', () => {
  it("RS-22 names the signed-in user and the API's MCP URL ({API_URL}/mcp), which the portal cannot know by itself", async () => {
    const answer = await (await signedIn()).request('/bff/session');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      user: { id: user.id, name: 'Barbara Liskov', email: user.email },
      mcpUrl: `${system.config.api.url}/mcp`,
    });
  });

  it('without a session: 401 {"error":"unauthenticated"}, no-store, and no cookie is set', async () => {
    const answer = await new PortalBrowser(system).request('/bff/session');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthenticated' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('a session ends SESSION_TTL after sign-in: 401 and the row is gone', async () => {
    const browser = await signedIn();
    expect((await browser.request('/bff/session')).status).toBe(200);
    system.clock.advance(SESSION_TTL_MS + 1000);
    try {
      expect((await browser.request('/bff/session')).status).toBe(401);
      expect(await sessionRow(browser)).toBeUndefined();
    } finally {
      system.clock.advance(-(SESSION_TTL_MS + 1000));
    }
  });

  it('TS-03 the stored session holds its tokens only encrypted', async () => {
    const browser = await signedIn();
    const tokens = (await readSessionTokens(system, browser))!;
    expect(tokens.accessToken).toMatch(/^lko_/);
    expect(tokens.refreshToken).toMatch(/^lkr_/);
    expect(tokens.stored).not.toContain(tokens.accessToken);
    expect(tokens.stored).not.toContain(tokens.refreshToken);
    expect(tokens.stored).not.toMatch(/lk[ors]_/);
  });
});

describe('BF-CT-01 cookie tampering', () => {
  it.each([
    ['one character of the signature flipped', (v: string) => alterChar(v, -3)],
    ['the signature stripped', (v: string) => encodeURIComponent(`s:${sessionIdOf(v)}`)],
    ['the bare id', (v: string) => sessionIdOf(v)],
    ['a valid id with another signature', (v: string) => encodeURIComponent(`s:${sessionIdOf(v)}.${'A'.repeat(43)}`)],
  ])('%s: 401 as anonymous, never 500, zero upstream calls', async (_name, tamper) => {
    const browser = await signedIn();
    const cookie = `lk_portal_sid=${tamper(browser.sessionCookie()!)}`;
    const calls = system.upstreamCalls.length;
    const session = await browser.request('/bff/session', { headers: { cookie } });
    expect(session.status).toBe(401);
    expect(session.body).toMatchObject({ error: 'unauthenticated' });
    const me = await browser.request('/bff/api/me', { headers: { cookie } });
    expect(me.status).toBe(401);
    const graphql = await browser.request('/bff/graphql', {
      json: { query: '{ profile { name } }' },
      headers: { cookie },
    });
    expect(graphql.status).toBe(401);
    expect(system.upstreamCalls.length).toBe(calls);
    // The real cookie still works: tampering did not disturb the session.
    expect((await browser.request('/bff/session')).status).toBe(200);
  });
});

describe('sign-out', () => {
  it('BF-LO-01 GET /bff/logout: 405 with Allow: POST, and the session is still valid', async () => {
    const browser = await signedIn();
    const answer = await browser.navigate('/bff/logout');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body).toMatchObject({ error: 'method_not_allowed' });
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect((await browser.request('/bff/session')).status).toBe(200);
  });

  it('BF-LO-02 POST /bff/logout without the CSRF header: 403, the session and its grant still valid', async () => {
    const browser = await signedIn();
    const revocations = system.countUpstream('/oauth/revoke');
    const answer = await browser.request('/bff/logout', {
      method: 'POST',
      headers: { 'x-latchkey-portal': undefined },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error: 'forbidden' });
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(system.countUpstream('/oauth/revoke')).toBe(revocations);
    expect((await browser.request('/bff/session')).status).toBe(200);
    expect((await browser.request('/bff/api/me')).status).toBe(200);
  });

  it('BF-LO-03 POST /bff/logout: 204, session row deleted, cookie cleared with its attributes, refresh token revoked, old cookie → 401', async () => {
    const browser = await signedIn();
    const cookie = browser.sessionCookie()!;
    const tokens = (await readSessionTokens(system, browser))!;
    const revocations = system.countUpstream('/oauth/revoke');
    const answer = await browser.request('/bff/logout', { method: 'POST' });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(setCookieLine(answer.headers, 'lk_portal_sid')).toMatch(
      /^lk_portal_sid=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/,
    );
    expect(system.countUpstream('/oauth/revoke')).toBe(revocations + 1);
    expect(await storedSession(system, cookie)).toBeUndefined();
    // RFC 7009: the grant is gone, refresh token and access token alike.
    expect(await refreshDirectly(tokens.refreshToken)).toEqual({ status: 400, error: 'invalid_grant' });
    const grant = await system.db
      .selectFrom('access_tokens')
      .innerJoin('grants', 'grants.id', 'access_tokens.grant_id')
      .select('grants.revoked_at')
      .where('access_tokens.token_hash', '=', digest(tokens.accessToken))
      .executeTakeFirstOrThrow();
    expect(grant.revoked_at).not.toBeNull();
    const replay = await browser.request('/bff/session', { headers: { cookie: `lk_portal_sid=${cookie}` } });
    expect(replay.status).toBe(401);
    const replayApi = await browser.request('/bff/api/me', { headers: { cookie: `lk_portal_sid=${cookie}` } });
    expect(replayApi.status).toBe(401);
  });

  it('POST /bff/logout without a session: 204 and the cookie cleared (idempotent), nothing revoked', async () => {
    const revocations = system.countUpstream('/oauth/revoke');
    const answer = await new PortalBrowser(system).request('/bff/logout', { method: 'POST' });
    expect(answer.status).toBe(204);
    expect(setCookieLine(answer.headers, 'lk_portal_sid')).toMatch(/Max-Age=0/);
    expect(system.countUpstream('/oauth/revoke')).toBe(revocations);
  });

  it('POST /bff/logout with a text/plain body: 415, still signed in', async () => {
    const browser = await signedIn();
    const answer = await browser.request('/bff/logout', { body: 'bye', headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ error: 'unsupported_media_type' });
    expect((await browser.request('/bff/session')).status).toBe(200);
  });
});

/**
 * A session store that fails every query. SQLite: a file whose sessions table was never
 * created. PostgreSQL: a server that is not there (connection refused), as when it is down.
 */
async function brokenDatabase(): Promise<{ db: Db; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-broken-store-'));
  const db =
    testEngine() === 'postgres'
      ? createDatabase({
          url: `postgres://postgres@127.0.0.1:${await reservedPort()}/latchkey`,
          poolMax: 2,
          timeoutMs: 1000,
        })
      : createDatabase({ sqlitePath: sqlitePathFor(dir) });
  if (testEngine() !== 'postgres') {
    // A handle closed under the server: an outage. (A file without the schema would be a
    // wrongly deployed database, which issue 16 answers 500, not 503.)
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    await db.destroy();
  }
  return { db, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('BF-RD-01 the session store fails', () => {
  it('API calls get 503 JSON with Retry-After (not 401: no sign-in loop), /bff/login a 503 page', async () => {
    const browser = await signedIn();
    const { db: broken, remove } = await brokenDatabase();
    const bff = await startSecondBff(system, { db: broken });
    try {
      const calls = system.upstreamCalls.length;
      for (const [path, init] of [
        ['/bff/session', {}],
        ['/bff/api/me', {}],
        ['/bff/graphql', { json: { query: '{ profile { name } }' } }],
        ['/bff/logout', { method: 'POST' }],
      ] as const) {
        const answer = await browser.request(`${bff.url}${path}`, init);
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ error: 'temporarily_unavailable' });
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.headers.getSetCookie()).toEqual([]);
      }
      expect(system.upstreamCalls.length).toBe(calls);
      const login = await browser.navigate(`${bff.url}/bff/login`);
      expect(login.status).toBe(503);
      expect(login.headers.get('content-type')).toMatch(/^text\/html/);
      expect(login.headers.get('location')).toBeNull();
      expect(login.headers.getSetCookie()).toEqual([]);
      // The session itself was never touched: the healthy BFF still serves it.
      expect((await browser.request('/bff/session')).status).toBe(200);
    } finally {
      await bff.close();
      await broken.destroy();
      remove();
    }
  });
});
