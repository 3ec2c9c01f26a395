// R-01 (and RV-01, RV-03, RV-04): revocation under load across two API
// instances. 50 concurrent clients send `{ profile { name } }` with the tokens to both APIs
// while the test revokes them: a PAT through the portal, a client (every token of every user)
// through the portal, and a user through the admin CLI. DD-5: once the revocation commits, not
// one request may succeed, on any instance.
import { describe, expect, it } from 'vitest';
import { adminQuery } from './support/backing-services.ts';
import { ClusterBrowser } from './support/cluster-browser.ts';
import {
  FORM,
  graphqlCall,
  makeClient,
  makePat,
  makeTokenPair,
  makeUser,
  refreshBody,
} from './support/cluster-fixtures.ts';
import { useCluster } from './support/cluster-suite.ts';
import { send, type HttpCall } from './support/load-generator.ts';
import { describeSamples, reportFigures } from './support/outcome-counters.ts';
import { crashReport } from './support/outage-judgement.ts';
import { raceFigures, raceRevocation, type RevocationRaceResult } from './support/revocation-race.ts';

const suite = useCluster({
  redis: true,
  // The commit time of the revoking transaction, read back afterwards (pg_xact_commit_timestamp).
  postgresSettings: { track_commit_timestamp: 'on' },
  portal: 2,
  env: { LOG_LEVEL: 'warn' },
});

/** Every token on every API instance, interleaved. */
function callsFor(tokens: Array<{ token: string; tag: string }>): HttpCall[] {
  const calls: HttpCall[] = [];
  for (const api of suite.cluster.api) {
    for (const { token, tag } of tokens) calls.push(graphqlCall(api.url, token, `${tag}@${api.name}`));
  }
  return calls;
}

/** Commit time (ms since the epoch, fractional) of the transaction that last wrote the row. */
async function commitTimeOf(table: 'access_tokens' | 'clients', id: string): Promise<number | undefined> {
  const { rows } = await adminQuery<{ ms: number | null }>(
    suite.services.databaseUrl,
    `select extract(epoch from pg_xact_commit_timestamp(xmin)) * 1000 as ms from ${table} where id = $1`,
    [id],
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Number(ms);
}

function expectNoSuccessAfterRevocation(result: RevocationRaceResult): void {
  // The load really ran on both sides of the revocation.
  expect(result.before.counts['2xx']).toBeGreaterThan(50);
  expect(result.after.counts['401']).toBeGreaterThan(50);
  // Before: every request succeeded (no 503 from a saturated pool, no 5xx).
  expect(result.before.counts['2xx'], JSON.stringify(result.before.counts)).toBe(
    Object.values(result.before.counts).reduce((a, b) => a + b, 0),
  );
  // Invariants.
  expect(result.okAfterRevocation.length, describeSamples(result.okAfterRevocation)).toBe(0);
  expect(result.after.notInvalidToken.length, describeSamples(result.after.notInvalidToken)).toBe(0);
  if (result.afterCommit !== undefined) {
    expect(result.afterCommit.ok.length, describeSamples(result.afterCommit.ok)).toBe(0);
  }
}

describe('R-01 revocation under load (50 concurrent clients, 2 API instances)', () => {
  it('R-01 a PAT revoked through the portal: 0 successes after the commit, then 401 invalid_token everywhere', async () => {
    const { cluster } = suite;
    const user = await makeUser(cluster.db);
    const browser = new ClusterBrowser(cluster);
    expect((await browser.signIn(user, cluster.portal[0]!)).status).toBe(302);
    const created = await browser.request(cluster.portal[0]!, '/bff/api/tokens', { json: { name: 'R-01' } });
    expect(created.status).toBe(201);
    const { value, token } = created.body as { value: string; token: { id: string } };

    const result = await raceRevocation({
      calls: callsFor([{ token: value, tag: 'pat' }]),
      revoke: async () => {
        const answer = await browser.request(cluster.portal[1]!, `/bff/api/tokens/${token.id}/revoke`, {
          method: 'POST',
        });
        if (answer.status !== 200) throw new Error(`revocation failed: ${answer.status} ${answer.text}`);
      },
      commitTime: () => commitTimeOf('access_tokens', token.id),
    });
    reportFigures('R-01 PAT', raceFigures(result));
    expectNoSuccessAfterRevocation(result);
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
  });

  it('R-01 a client revoked through the portal: every token of every user of it is refused after the commit (RV-03, RV-04)', async () => {
    const { cluster } = suite;
    const owner = await makeUser(cluster.db, 'Client Owner');
    const browser = new ClusterBrowser(cluster);
    expect((await browser.signIn(owner, cluster.portal[1]!)).status).toBe(302);
    const app = await makeClient(cluster.db, owner);
    const users = await Promise.all([makeUser(cluster.db), makeUser(cluster.db)]);
    const pairs = await Promise.all(users.map((u) => makeTokenPair(cluster.db, cluster.authUrl, app, u)));

    const result = await raceRevocation({
      calls: callsFor(pairs.map((p, i) => ({ token: p.accessToken, tag: `user${i + 1}` }))),
      revoke: async () => {
        const answer = await browser.request(cluster.portal[0]!, `/bff/api/clients/${app.client.id}/revoke`, {
          method: 'POST',
        });
        if (answer.status !== 200) throw new Error(`revocation failed: ${answer.status} ${answer.text}`);
      },
      commitTime: () => commitTimeOf('clients', app.client.id),
    });
    reportFigures('R-01 client', raceFigures(result));
    expectNoSuccessAfterRevocation(result);

    // RV-03: the refresh tokens died with the client, on both authorization servers.
    for (const [i, auth] of cluster.auth.entries()) {
      const refreshed = await send({
        url: `${auth.url}/oauth/token`,
        headers: FORM,
        body: refreshBody(app, pairs[i]!.refreshToken),
      });
      expect(refreshed.status, auth.name).toBe(401);
      expect(refreshed.error).toBe('invalid_client');
    }
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
  });

  it('R-01 a user deleted with the admin CLI: their PAT and OAuth token are refused once the command returns', async () => {
    const { cluster } = suite;
    const owner = await makeUser(cluster.db, 'App Owner');
    const app = await makeClient(cluster.db, owner);
    const doomed = await makeUser(cluster.db, 'Leaving User');
    const pat = await makePat(cluster.db, doomed);
    const pair = await makeTokenPair(cluster.db, cluster.authUrl, app, doomed);

    const result = await raceRevocation({
      calls: callsFor([
        { token: pat.token, tag: 'pat' },
        { token: pair.accessToken, tag: 'oauth' },
      ]),
      revoke: async () => {
        await cluster.cli(['user', 'delete', doomed.email]);
      },
    });
    reportFigures('R-01 user', raceFigures(result));
    expectNoSuccessAfterRevocation(result);
    expect(crashReport(cluster.all())).toEqual({ exited: [], fatal: {} });
  });
});
