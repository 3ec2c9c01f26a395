import { describe, expect, it } from 'vitest';
import { digest } from '@latchkey/credentials';
import { useUsers } from '#test/support/fixtures.ts';
import {
  PortalBrowser,
  readSessionTokens,
  startSecondBff,
  storedSession,
  usePortalSystem,
  type PortalResponse,
} from '#test/support/portal-system.ts';

const TOKEN_TTL_SECONDS = 3600;
const system = usePortalSystem({ TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) });
const { user } = useUsers(system, { user: 'Radia Perlman' });

async function signedIn(): Promise<PortalBrowser> {
  const browser = new PortalBrowser(system);
  await browser.signIn(user);
  return browser;
}

/** The access token dies at the server; the BFF cannot know until the upstream says 401. */
async function killAccessToken(accessToken: string): Promise<void> {
  await system.db
    .updateTable('access_tokens')
    .set({ revoked_at: system.clock.now() })
    .where('token_hash', '=', digest(accessToken))
    .execute();
}

async function grantOf(accessToken: string) {
  return system.db
    .selectFrom('access_tokens')
    .innerJoin('grants', 'grants.id', 'access_tokens.grant_id')
    .select(['grants.id', 'grants.revoked_at'])
    .where('access_tokens.token_hash', '=', digest(accessToken))
    .executeTakeFirstOrThrow();
}

async function refreshTokenRows(grantId: string): Promise<number> {
  return (await system.db.selectFrom('refresh_tokens').select('id').where('grant_id', '=', grantId).execute()).length;
}

/** Ten concurrent SPA calls, half GraphQL, half account reads. */
function tenConcurrentCalls(browser: PortalBrowser): Promise<PortalResponse[]> {
  return Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } })
        : browser.request('/bff/api/me'),
    ),
  );
}

function expectAllSucceeded(answers: PortalResponse[]): void {
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  for (const [i, answer] of answers.entries()) {
    if (i % 2 === 0) expect(answer.body).toEqual({ data: { profile: { name: 'Radia Perlman' } } });
    else expect(answer.body).toMatchObject({ id: user.id });
  }
}

describe('single-flight refresh (D-4, BF-RT-01, BF-PX-02)', () => {
  it('BF-RT-01 10 concurrent requests after the access token died: exactly one refresh reaches the server, all 10 succeed', async () => {
    const browser = await signedIn();
    const before = (await readSessionTokens(system, browser))!;
    const grant = await grantOf(before.accessToken);
    const rows = await refreshTokenRows(grant.id);
    const refreshes = system.countUpstream('/oauth/token', 'refresh_token');
    await killAccessToken(before.accessToken);

    expectAllSucceeded(await tenConcurrentCalls(browser));

    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes + 1);
    expect(await refreshTokenRows(grant.id)).toBe(rows + 1);
    // the BFF itself never trips reuse detection; the family is alive.
    expect((await grantOf(before.accessToken)).revoked_at).toBeNull();
    const after = (await readSessionTokens(system, browser))!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // The next call uses the stored new token: no further refresh.
    expect((await browser.request('/bff/api/me')).status).toBe(200);
    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes + 1);
  });

  it('BF-RT-01 10 concurrent requests after the access token expired (injected clock): one refresh, all succeed', async () => {
    const browser = await signedIn();
    const before = (await readSessionTokens(system, browser))!;
    const grant = await grantOf(before.accessToken);
    const rows = await refreshTokenRows(grant.id);
    const refreshes = system.countUpstream('/oauth/token', 'refresh_token');
    system.clock.advance(TOKEN_TTL_SECONDS * 1000 + 1000);

    expectAllSucceeded(await tenConcurrentCalls(browser));

    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes + 1);
    expect(await refreshTokenRows(grant.id)).toBe(rows + 1);
    expect((await grantOf(before.accessToken)).revoked_at).toBeNull();
  });

  it('two sessions of one user refresh independently, each once', async () => {
    const first = await signedIn();
    const second = await signedIn();
    const refreshes = system.countUpstream('/oauth/token', 'refresh_token');
    await killAccessToken((await readSessionTokens(system, first))!.accessToken);
    await killAccessToken((await readSessionTokens(system, second))!.accessToken);
    const answers = await Promise.all([tenConcurrentCalls(first), tenConcurrentCalls(second)]);
    for (const batch of answers) expectAllSucceeded(batch);
    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes + 2);
  });
});

describe('a dead grant (BF-RT-02)', () => {
  it('BF-RT-02 the refresh answer is invalid_grant: the session is destroyed, 401 to the SPA, one refresh, no loop', async () => {
    const browser = await signedIn();
    const cookie = browser.sessionCookie()!;
    const { accessToken } = (await readSessionTokens(system, browser))!;
    const grant = await grantOf(accessToken);
    // Revoked elsewhere (another device signed out, or the user revoked the portal's token).
    await system.db.updateTable('grants').set({ revoked_at: system.clock.now() }).where('id', '=', grant.id).execute();
    const refreshes = system.countUpstream('/oauth/token', 'refresh_token');
    const graphqlCalls = system.countUpstream('/graphql');

    const answer = await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'unauthenticated' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.getSetCookie().find((c) => c.startsWith('lk_portal_sid='))).toMatch(
      /^lk_portal_sid=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/,
    );
    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes + 1);
    expect(system.countUpstream('/graphql')).toBe(graphqlCalls + 1);
    expect(await storedSession(system, cookie)).toBeUndefined();

    // No loop: the old cookie is simply anonymous now, and costs no upstream call.
    const calls = system.upstreamCalls.length;
    const replay = await browser.request('/bff/graphql', {
      json: { query: '{ profile { name } }' },
      headers: { cookie: `lk_portal_sid=${cookie}` },
    });
    expect(replay.status).toBe(401);
    expect((await browser.request('/bff/session', { headers: { cookie: `lk_portal_sid=${cookie}` } })).status).toBe(
      401,
    );
    expect(system.upstreamCalls.length).toBe(calls);
  });

  it('BF-RT-02 with 10 concurrent requests: one refresh, ten 401s', async () => {
    const browser = await signedIn();
    const { accessToken } = (await readSessionTokens(system, browser))!;
    const grant = await grantOf(accessToken);
    await system.db.updateTable('grants').set({ revoked_at: system.clock.now() }).where('id', '=', grant.id).execute();
    const refreshes = system.countUpstream('/oauth/token', 'refresh_token');
    const answers = await tenConcurrentCalls(browser);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    expect(system.countUpstream('/oauth/token', 'refresh_token')).toBe(refreshes + 1);
  });
});

describe('the authorization server unreachable during a refresh', () => {
  it('503 upstream_unavailable and the session is kept; the next request refreshes normally', async () => {
    const browser = await signedIn();
    const before = (await readSessionTokens(system, browser))!;
    await killAccessToken(before.accessToken);
    const faulty = await startSecondBff(system, {
      fetch: (input, init) =>
        String(input).endsWith('/oauth/token')
          ? Promise.reject(
              new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }),
            )
          : fetch(input, init),
    });
    try {
      const answer = await browser.request(`${faulty.url}/bff/graphql`, { json: { query: '{ profile { name } }' } });
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ error: 'upstream_unavailable' });
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect((await readSessionTokens(system, browser))!.refreshToken).toBe(before.refreshToken);
    } finally {
      await faulty.close();
    }
    const recovered = await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
    expect(recovered.status).toBe(200);
  });
});
