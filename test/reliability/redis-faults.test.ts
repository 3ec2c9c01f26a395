// redis-server killed while two portals and two authorization
// servers serve. Sessions (BF-RD-01): 503 with Retry-After, never 401 (a 401 sends the SPA to
// sign in, which cannot work either: a login loop); after Redis returns empty, one clean 401
// and a sign-in that works. Rate limits (D-8): the shared limits fail open, the in-process
// floor on /oauth/token and sign-in still answers 429 past the limit.
import { describe, expect, it } from 'vitest';
import { ClusterBrowser } from './support/cluster-browser.ts';
import {
  codeExchangeBody,
  FORM,
  graphqlCall,
  makeClient,
  makeCode,
  makePat,
  makeUser,
} from './support/cluster-fixtures.ts';
import { useCluster } from './support/cluster-suite.ts';
import { send, startLoad, type HttpCall, type Sample } from './support/load-generator.ts';
import { breakdown, countOutcomes, describeSamples, latencyOf, reportFigures } from './support/outcome-counters.ts';
import { crashReport, isUnavailable } from './support/outage-judgement.ts';

const LIMIT = 5;
const REDIS_TIMEOUT_MS = 500;

const suite = useCluster({
  redis: true,
  env: {
    REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS),
    RATE_LIMIT_TOKEN_PER_MINUTE: String(LIMIT),
    RATE_LIMIT_LOGIN_PER_MINUTE: String(LIMIT),
    LOG_LEVEL: 'warn',
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectNoCrash(): void {
  expect(crashReport(suite.cluster.all())).toEqual({ exited: [], fatal: {} });
}

describe('R-07, R-08: Redis killed under portal traffic and rate limits', () => {
  it('R-07 Redis down for sessions: 503 + Retry-After and no 401 or sign-in redirect; after it returns, a clean 401 and a sign-in that works', async () => {
    const { cluster, services } = suite;
    const redis = services.redis!;
    const user = await makeUser(cluster.db, 'Redis Outage');
    const pat = await makePat(cluster.db, user);
    const browser = new ClusterBrowser(cluster);
    expect((await browser.signIn(user, cluster.portal[0]!)).status).toBe(302);

    const sessionCall = (i: number): HttpCall => ({
      url: `${cluster.portal[i % 2]!.url}/bff/session`,
      headers: browser.spaHeaders('GET'),
      tag: `session@${cluster.portal[i % 2]!.name}`,
    });
    const load = startLoad({
      concurrency: 16,
      ratePerSecond: 60,
      durationMs: 30_000,
      maxRequests: 2000,
      nextCall: (i) => {
        const portal = cluster.portal[i % 2]!;
        if (i % 3 === 0) return browser.graphqlCall(portal, `graphql@${portal.name}`);
        if (i % 3 === 1) return sessionCall(i);
        const api = cluster.api[i % 2]!;
        return graphqlCall(api.url, pat.token, `api@${api.name}`);
      },
    });
    await sleep(1000);
    const downAt = performance.now();
    redis.kill('SIGKILL');
    await sleep(1500);
    // Starting a sign-in needs the store too: 503, not a redirect into a sign-in that cannot finish.
    const logins = await Promise.all(
      cluster.portal.map((p) => send({ url: `${p.url}/bff/login`, headers: { accept: 'text/html' }, tag: p.name })),
    );
    await sleep(1500);
    const restartAt = performance.now();
    await redis.restart();
    const backAt = performance.now();
    // Each portal's Redis client reconnects on its own capped back-off: run on until both
    // answer cleanly again, and a second more (at most 10 s).
    const cleanSince = (found: Sample[], portal: string) =>
      found
        .filter((s) => s.tag.endsWith(`@${portal}`) && s.sentMono >= backAt && s.status === 401)
        .sort((a, b) => a.sentMono - b.sentMono)[0];
    for (;;) {
      await sleep(200);
      const firsts = cluster.portal.map((p) => cleanSince(load.samples, p.name));
      const settled = firsts.every((f) => f !== undefined && performance.now() - (f.sentMono + f.latencyMs) > 1000);
      if (settled || performance.now() - backAt > 10_000) break;
    }
    load.stop();
    const samples = await load.done;

    const isPortal = (s: Sample) => !s.tag.startsWith('api@');
    const before = samples.filter((s) => s.sentMono + s.latencyMs < downAt);
    const outage = samples.filter((s) => s.sentMono > downAt + 50 && s.sentMono + s.latencyMs < restartAt);
    const outageWrong = outage.filter((s) => (isPortal(s) ? !isUnavailable(s) : s.status !== 200));
    const loginLoop = outage.filter((s) => isPortal(s) && s.status === 401).length;
    const returned = samples.filter((s) => s.sentMono >= backAt);
    const recovery = cluster.portal.map((portal) => {
      const first = cleanSince(samples, portal.name);
      const ofPortal = returned.filter((s) => s.tag.endsWith(`@${portal.name}`));
      return {
        portal: portal.name,
        clean401AfterMs: first === undefined ? undefined : Math.round(first.sentMono + first.latencyMs - backAt),
        // Until its client reconnects a portal still says 503; once it answers 401 it stays so.
        wrongWhileReconnecting: ofPortal.filter(
          (s) => first !== undefined && s.sentMono < first.sentMono && !isUnavailable(s),
        ),
        wrongAfterClean: ofPortal.filter(
          (s) => first !== undefined && s.sentMono >= first.sentMono && s.status !== 401,
        ),
        cleanAnswers: ofPortal.filter((s) => first !== undefined && s.sentMono >= first.sentMono).length,
      };
    });
    const apiAfter = returned.filter((s) => !isPortal(s));
    reportFigures('R-07', {
      requests: samples.length,
      outageMs: Math.round(restartAt - downAt),
      before: countOutcomes(before),
      outage: breakdown(outage, (s) => s.tag.split('@')[0]!),
      outageLatencyMs: latencyOf(outage.filter(isPortal)),
      loginDuringOutage: logins.map((l) => ({ status: l.status, retryAfter: l.retryAfter })),
      afterReturn: breakdown(returned, (s) => s.tag.split('@')[0]!),
      recovery: recovery.map((r) => ({
        portal: r.portal,
        clean401AfterMs: r.clean401AfterMs,
        cleanAnswers: r.cleanAnswers,
      })),
      invariants: {
        loginLoop401: loginLoop,
        wrongDuringOutage: outageWrong.length,
        wrongAfterReturn: recovery.reduce((n, r) => n + r.wrongWhileReconnecting.length + r.wrongAfterClean.length, 0),
      },
    });

    expect(before.length).toBeGreaterThan(20);
    expect(
      before.every((s) => s.status === 200),
      describeSamples(before.filter((s) => s.status !== 200)),
    ).toBe(true);
    expect(outage.filter(isPortal).length).toBeGreaterThan(20);
    expect(outageWrong.length, describeSamples(outageWrong)).toBe(0);
    for (const login of logins) {
      expect(login.status, login.tag).toBe(503);
      expect(login.retryAfter).toBeDefined();
    }
    // Redis came back empty: the session is gone, cleanly, on both portals, within a few
    // seconds and without a restart; the APIs never noticed.
    for (const r of recovery) {
      expect(r.clean401AfterMs, r.portal).toBeDefined();
      expect(r.clean401AfterMs!, r.portal).toBeLessThanOrEqual(5000);
      expect(r.cleanAnswers, r.portal).toBeGreaterThan(5);
      expect(r.wrongWhileReconnecting.length, describeSamples(r.wrongWhileReconnecting)).toBe(0);
      expect(r.wrongAfterClean.length, describeSamples(r.wrongAfterClean)).toBe(0);
    }
    expect(apiAfter.length).toBeGreaterThan(10);
    expect(apiAfter.every((s) => s.status === 200)).toBe(true);
    const again = await browser.signIn(user, cluster.portal[1]!, cluster.portal[0]!);
    expect(again.status).toBe(302);
    for (const portal of cluster.portal) {
      const graphql = await browser.request(portal, '/bff/graphql', { json: { query: '{ profile { name } }' } });
      expect(graphql.status, portal.name).toBe(200);
    }
    expectNoCrash();
  });

  it('R-08 Redis down for rate limits: the shared limits fail open, the in-process floor still answers 429 on /oauth/token and sign-in', async () => {
    const { cluster, services } = suite;
    const redis = services.redis!;
    const [auth1, auth2] = [cluster.auth[0]!, cluster.auth[1]!];
    const owner = await makeUser(cluster.db);
    const app = await makeClient(cluster.db, owner);
    const codes = await Promise.all([makeCode(cluster.db, app, owner), makeCode(cluster.db, app, owner)]);
    const wrongSecret = {
      headers: FORM,
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'x'.repeat(43),
        redirect_uri: 'https://client.example/cb',
        client_id: app.client.id,
        client_secret: 'lks_wrong',
      }).toString(),
    };
    const failedSignIn = {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ email: owner.email, password: 'not-the-password' }).toString(),
    };

    redis.kill('SIGKILL');
    try {
      await sleep(200);
      // Fail open: a legitimate exchange goes through on both instances though the shared count is unreachable.
      const legit = await Promise.all(
        [auth1, auth2].map((auth, i) =>
          send({
            url: `${auth.url}/oauth/token`,
            headers: FORM,
            body: codeExchangeBody(app, codes[i]!),
            tag: auth.name,
          }),
        ),
      );
      // The floor: failed client authentications on one instance, one at a time.
      const tokenAttempts: Sample[] = [];
      for (let i = 0; i <= LIMIT; i += 1)
        tokenAttempts.push(await send({ url: `${auth1.url}/oauth/token`, ...wrongSecret }));
      // The floor is per instance while Redis is down: instance 2 has counted nothing yet.
      const otherInstance = await send({ url: `${auth2.url}/oauth/token`, ...wrongSecret });
      const signInAttempts: Sample[] = [];
      for (let i = 0; i <= LIMIT; i += 1)
        signInAttempts.push(await send({ url: `${auth2.url}/signin`, ...failedSignIn }));

      reportFigures('R-08', {
        legitimateExchanges: legit.map((s) => s.status),
        tokenAttempts: tokenAttempts.map((s) => s.status),
        otherInstance: otherInstance.status,
        signInAttempts: signInAttempts.map((s) => s.status),
        retryAfter: { token: tokenAttempts.at(-1)?.retryAfter, signIn: signInAttempts.at(-1)?.retryAfter },
      });

      for (const answer of legit) expect(answer.status, `${answer.tag} ${answer.body}`).toBe(200);
      expect(tokenAttempts.slice(0, LIMIT).map((s) => `${s.status} ${s.error}`)).toEqual(
        Array.from({ length: LIMIT }, () => '401 invalid_client'),
      );
      expect(tokenAttempts[LIMIT]!.status).toBe(429);
      expect(Number(tokenAttempts[LIMIT]!.retryAfter)).toBeGreaterThan(0);
      expect(otherInstance.status).toBe(401);
      // A failed sign-in is refused (422 form again, or 503 while its session store is down), never a 5xx of another kind.
      for (const attempt of signInAttempts.slice(0, LIMIT)) expect([403, 422, 503]).toContain(attempt.status);
      expect(signInAttempts[LIMIT]!.status).toBe(429);
      expect(Number(signInAttempts[LIMIT]!.retryAfter)).toBeGreaterThan(0);
    } finally {
      await redis.restart();
    }
    expectNoCrash();
  });
});
