// Issue 4, "a multi-instance test": two authorization servers, two APIs and two portals as
// separate processes on one PostgreSQL and one Redis. Nothing that decides an answer may live
// in one process's memory: a session made through one portal works through the other, a
// revocation through one instance is refused by every API on the next request, and rate
// limits are counted across instances.
import { describe, expect, it } from 'vitest';
import { send } from './support/load-generator.ts';
import { ClusterBrowser } from './support/cluster-browser.ts';
import { FORM, graphqlCall, makeClient, makeUser } from './support/cluster-fixtures.ts';
import { useCluster } from './support/cluster-suite.ts';
import { crashReport } from './support/outage-judgement.ts';

/** Failed client authentications allowed per minute, across the whole cluster. */
const TOKEN_LIMIT = 5;

const suite = useCluster({ redis: true, env: { RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_LIMIT) } });

describe('multi-instance: 2 authorization servers, 2 APIs, 2 portals on one PostgreSQL and one Redis', () => {
  it('MI-01 a sign-in through portal 1 is a session on portal 2, and a sign-in may start on one and finish on the other', async () => {
    const { cluster } = suite;
    const [portal1, portal2] = [cluster.portal[0]!, cluster.portal[1]!];
    const user = await makeUser(cluster.db, 'Ada Multi');

    const browser = new ClusterBrowser(cluster);
    const callback = await browser.signIn(user, portal1);
    expect(callback.status).toBe(302);
    expect(callback.location).toBe('/');
    for (const portal of [portal2, portal1]) {
      const session = await browser.request(portal, '/bff/session');
      expect(session.status, portal.name).toBe(200);
      expect(session.body.user.email).toBe(user.email);
      const graphql = await browser.request(portal, '/bff/graphql', { json: { query: '{ profile { name } }' } });
      expect(graphql.status, portal.name).toBe(200);
      expect(graphql.body).toEqual({ data: { profile: { name: 'Ada Multi' } } });
    }

    // The login transaction (state, PKCE verifier) lives in shared storage: started on portal
    // 2, the callback may land on portal 1.
    const second = new ClusterBrowser(cluster);
    const crossed = await second.signIn(user, portal2, portal1);
    expect(crossed.status).toBe(302);
    expect(crossed.location).toBe('/');
    expect((await second.request(portal2, '/bff/session')).status).toBe(200);
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
  });

  it('RV-01 a token created through portal 1 and revoked through portal 2 is refused by both APIs on the next request', async () => {
    const { cluster } = suite;
    const [portal1, portal2] = [cluster.portal[0]!, cluster.portal[1]!];
    const user = await makeUser(cluster.db);
    const browser = new ClusterBrowser(cluster);
    expect((await browser.signIn(user, portal1)).status).toBe(302);

    const created = await browser.request(portal1, '/bff/api/tokens', { json: { name: 'multi-instance' } });
    expect(created.status).toBe(201);
    const { value, token } = created.body as { value: string; token: { id: string } };
    for (const api of cluster.api) {
      const answer = await send(graphqlCall(api.url, value));
      expect(answer.status, api.name).toBe(200);
    }

    const revoked = await browser.request(portal2, `/bff/api/tokens/${token.id}/revoke`, { method: 'POST' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');

    // The very next request to each API, sent at once.
    const after = await Promise.all(cluster.api.map((api) => send(graphqlCall(api.url, value, api.name))));
    for (const answer of after) {
      expect(answer.status, answer.tag).toBe(401);
      expect(answer.error, answer.tag).toBe('invalid_token');
    }
    const listed = await browser.request(portal1, '/bff/api/tokens');
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ id: string; status: string }>).find((t) => t.id === token.id)?.status).toBe(
      'revoked',
    );
  });

  it('CA-07 failed client authentications are counted across both authorization servers', async () => {
    const { cluster } = suite;
    const [auth1, auth2] = [cluster.auth[0]!, cluster.auth[1]!];
    const owner = await makeUser(cluster.db);
    const { client } = await makeClient(cluster.db, owner);
    const wrongSecret = (tag: string) => ({
      url: '',
      headers: FORM,
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'x'.repeat(43),
        redirect_uri: 'https://client.example/cb',
        client_id: client.id,
        client_secret: 'lks_wrong',
      }).toString(),
      tag,
    });

    // The whole allowance, used on instance 1 alone.
    for (let i = 0; i < TOKEN_LIMIT; i += 1) {
      const answer = await send({ ...wrongSecret('auth-1'), url: `${auth1.url}/oauth/token` });
      expect(answer.status, `attempt ${i + 1} on auth-1`).toBe(401);
      expect(answer.error).toBe('invalid_client');
    }
    // Instance 2 has seen no failure itself, yet the shared count says the limit is reached.
    const tripped = await send({ ...wrongSecret('auth-2'), url: `${auth2.url}/oauth/token` });
    expect(tripped.status, tripped.body).toBe(429);
    expect(Number(tripped.retryAfter)).toBeGreaterThan(0);
  });
});
