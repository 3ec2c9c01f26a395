// across instances: single use of codes (AC-04) and strict refresh
// rotation (RT-03) when the racing requests land on different authorization servers, and the
// portal's single-flight refresh (BF-RT-01) when the racing requests land on different portals.
// The cluster runs with the reuse grace window off (REFRESH_REUSE_GRACE_SECONDS=0, RG-04), the
// strict rule R-03 is about; refresh-grace.test.ts covers the window, on both engines.
import { Agent } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ClusterBrowser } from './support/cluster-browser.ts';
import {
  codeExchangeBody,
  FORM,
  graphqlCall,
  makeClient,
  makeCode,
  makeTokenPair,
  makeUser,
  pairOf,
  refreshBody,
} from './support/cluster-fixtures.ts';
import { useCluster } from './support/cluster-suite.ts';
import { rowsPerGrant } from '../support/grant-rows.ts';
import { send, type HttpCall, type Sample } from './support/load-generator.ts';
import { countOutcomes, describeSamples, latencyOf, reportFigures } from './support/outcome-counters.ts';
import { crashReport } from './support/outage-judgement.ts';

const suite = useCluster({ redis: true, env: { LOG_LEVEL: 'warn', REFRESH_REUSE_GRACE_SECONDS: '0' } });
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
afterAll(() => agent.destroy());

/** Sends every call at once; answers in the same order. */
const sendAll = (calls: HttpCall[]): Promise<Sample[]> => Promise.all(calls.map((call) => send(call, agent)));

describe('R-02, R-03: races across two authorization servers and two portals', () => {
  it('R-02 100 codes, each redeemed by 4 parallel requests over both authorization servers: exactly 100 token pairs', async () => {
    const { cluster } = suite;
    const owner = await makeUser(cluster.db);
    const user = await makeUser(cluster.db);
    const app = await makeClient(cluster.db, owner);
    const codes: string[] = [];
    for (let i = 0; i < 100; i += 1) codes.push(await makeCode(cluster.db, app, user));

    const samples: Sample[] = [];
    const perCode: Sample[][] = [];
    // 25 codes at a time: 100 requests in flight, 50 on each instance.
    for (let batch = 0; batch < 100; batch += 25) {
      const calls = codes.slice(batch, batch + 25).flatMap((code, i) =>
        [0, 1, 2, 3].map((n) => ({
          url: `${cluster.auth[n % 2]!.url}/oauth/token`,
          headers: FORM,
          body: codeExchangeBody(app, code),
          tag: `code${batch + i}`,
        })),
      );
      const answers = await sendAll(calls);
      samples.push(...answers);
      for (let i = 0; i < answers.length; i += 4) perCode.push(answers.slice(i, i + 4));
    }

    const counts = countOutcomes(samples);
    const wrongWinners = perCode.filter((answers) => answers.filter((a) => a.status === 200).length !== 1);
    const badLosers = samples.filter((s) => s.status !== 200 && !(s.status === 400 && s.error === 'invalid_grant'));
    const rows = await rowsPerGrant(cluster.db, app.client.id);
    const partial = rows.filter((r) => !r.consumed || r.accessTokens !== 1 || r.refreshTokens !== 1);
    reportFigures('R-02', {
      requests: samples.length,
      counts,
      latencyMs: latencyOf(samples),
      byInstance: Object.fromEntries(
        cluster.auth.map((a) => [a.name, countOutcomes(samples.filter((s) => s.target === new URL(a.url).origin))]),
      ),
      tokenPairsInDatabase: rows.reduce((n, r) => n + Math.min(r.accessTokens, r.refreshTokens), 0),
      invariant_codesWithoutExactlyOneWinner: wrongWinners.length,
      invariant_grantsNotExactlyOnePair: partial.length,
    });
    expect(counts['2xx']).toBe(100);
    expect(wrongWinners.length, describeSamples(wrongWinners.flat())).toBe(0);
    expect(badLosers.length, describeSamples(badLosers)).toBe(0);
    expect(rows).toHaveLength(100);
    expect(partial, JSON.stringify(partial.slice(0, 3))).toEqual([]);
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
    // Both instances took part in the races and both handed out winners.
    for (const auth of cluster.auth) {
      const won = samples.filter((s) => s.status === 200 && s.target === new URL(auth.url).origin).length;
      expect(won, auth.name).toBeGreaterThan(0);
    }
  });

  it('R-03 one refresh token redeemed by 4 parallel requests over both authorization servers: one winner, then the family is revoked (RT-03)', async () => {
    const { cluster } = suite;
    const owner = await makeUser(cluster.db);
    const user = await makeUser(cluster.db);
    const app = await makeClient(cluster.db, owner);
    const families = await Promise.all(
      Array.from({ length: 20 }, () => makeTokenPair(cluster.db, cluster.authUrl, app, user)),
    );

    const calls = families.flatMap((pair, f) =>
      [0, 1, 2, 3].map((n) => ({
        url: `${cluster.auth[n % 2]!.url}/oauth/token`,
        headers: FORM,
        body: refreshBody(app, pair.refreshToken),
        tag: `family${f}`,
      })),
    );
    const samples = await sendAll(calls);
    const perFamily = families.map((_, f) => samples.slice(f * 4, f * 4 + 4));
    const winners = perFamily.map((answers) => answers.filter((a) => a.status === 200));
    const badLosers = samples.filter((s) => s.status !== 200 && !(s.status === 400 && s.error === 'invalid_grant'));
    const rows = await rowsPerGrant(cluster.db, app.client.id);

    // The winner's new pair belongs to a family that a concurrent reuse revoked (D-4).
    const newPairs = winners.flatMap((w) => (w[0] ? [pairOf(w[0])!] : []));
    const probes = await sendAll(
      newPairs.flatMap((pair) => [
        ...cluster.api.map((api) => graphqlCall(api.url, pair.accessToken, api.name)),
        {
          url: `${cluster.auth[1]!.url}/oauth/token`,
          headers: FORM,
          body: refreshBody(app, pair.refreshToken),
          tag: 'rt',
        },
      ]),
    );
    const liveAfterRace = probes.filter((p) =>
      p.tag === 'rt'
        ? !(p.status === 400 && p.error === 'invalid_grant')
        : !(p.status === 401 && p.error === 'invalid_token'),
    );
    reportFigures('R-03 rotation', {
      families: families.length,
      requests: samples.length,
      counts: countOutcomes(samples),
      latencyMs: latencyOf(samples),
      invariant_familiesWithoutExactlyOneWinner: winners.filter((w) => w.length !== 1).length,
      invariant_familiesNotRevoked: rows.filter((r) => !r.revoked).length,
      invariant_tokensAliveAfterReuse: liveAfterRace.length,
    });
    expect(winners.map((w) => w.length)).toEqual(families.map(() => 1));
    expect(badLosers.length, describeSamples(badLosers)).toBe(0);
    expect(rows.filter((r) => !r.revoked)).toEqual([]);
    expect(liveAfterRace.length, describeSamples(liveAfterRace)).toBe(0);
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
  });

  it('R-03 1,000 portal requests with an expired access token over both portals: one refresh per expiry, 0 families revoked (BF-RT-01)', async () => {
    const { cluster } = suite;
    const user = await makeUser(cluster.db, 'Single Flight');
    const browser = new ClusterBrowser(cluster);
    expect((await browser.signIn(user, cluster.portal[0]!)).status).toBe(302);
    const grant = await cluster.db
      .selectFrom('grants')
      .select('id')
      .where('user_id', '=', user.id)
      .where('client_id', '=', cluster.env.PORTAL_CLIENT_ID!)
      .executeTakeFirstOrThrow();
    const refreshTokenCount = async () =>
      (await cluster.db.selectFrom('refresh_tokens').select('id').where('grant_id', '=', grant.id).execute()).length;

    const rounds = 5;
    const perRound = 200;
    const samples: Sample[] = [];
    const refreshesPerRound: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const before = await refreshTokenCount();
      // The session's access token expires now (as if a year had passed); the BFF still
      // believes it valid, so every request first gets 401 from its API, then refreshes.
      await cluster.db
        .updateTable('access_tokens')
        .set({ expires_at: Date.now() - 1000 })
        .where('grant_id', '=', grant.id)
        .where('revoked_at', 'is', null)
        .execute();
      const calls = Array.from({ length: perRound }, (_, i) =>
        browser.graphqlCall(cluster.portal[i % 2]!, `round${round}@${cluster.portal[i % 2]!.name}`),
      );
      samples.push(...(await sendAll(calls)));
      refreshesPerRound.push((await refreshTokenCount()) - before);
    }
    const grantAfter = await cluster.db
      .selectFrom('grants')
      .select('revoked_at')
      .where('id', '=', grant.id)
      .executeTakeFirstOrThrow();
    const failed = samples.filter((s) => s.status !== 200);
    reportFigures('R-03 BFF single-flight', {
      requests: samples.length,
      counts: countOutcomes(samples),
      latencyMs: latencyOf(samples),
      refreshesPerRound,
      invariant_familiesRevokedByTheBff: grantAfter.revoked_at === null ? 0 : 1,
    });
    expect(failed.length, describeSamples(failed)).toBe(0);
    expect(grantAfter.revoked_at).toBeNull();
    expect(refreshesPerRound).toEqual(Array.from({ length: rounds }, () => 1));
    // And the session goes on working on both portals.
    for (const portal of cluster.portal) {
      expect((await browser.request(portal, '/bff/session')).status, portal.name).toBe(200);
    }
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
  });
});
