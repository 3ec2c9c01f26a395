// The steady traffic the database fault tests run through an outage: /graphql with a live PAT
// (deserves 200), /graphql with a revoked PAT (deserves 401 invalid_token, and must never get
// 200, even when it cannot be checked), and /oauth/token code exchanges with fresh codes
// (deserve 200 and a token pair, never invalid_grant), spread over every instance.
import { revokeAccessToken, systemClock } from '@latchkey/core';
import type { Cluster } from './cluster.ts';
import {
  codeExchangeBody,
  FORM,
  graphqlCall,
  makeClient,
  makeCode,
  makePat,
  makeUser,
  pairOf,
  type TestClient,
} from './cluster-fixtures.ts';
import type { HttpCall, Sample } from './load-generator.ts';
import { countOutcomes, latencyOf } from './outcome-counters.ts';
import { isUnavailable } from './outage-judgement.ts';

export type TrafficKind = 'valid' | 'revoked' | 'code' | 'healthz' | 'readyz';

export interface TokenTraffic {
  app: TestClient;
  /** The i-th request of the mix: valid, revoked, valid, code, … over the instances. */
  nextCall(index: number): HttpCall;
  /** Whether a sample got the answer its request deserves when all is well. */
  ok(sample: Sample): boolean;
  /** Codes handed out so far. */
  codesUsed(): number;
}

export const kindOf = (sample: Sample) => sample.tag.split('@')[0] as TrafficKind;

/** Makes a user with a live and a revoked PAT, a client and `codes` unused codes. */
export async function prepareTokenTraffic(cluster: Cluster, codes: number): Promise<TokenTraffic> {
  const user = await makeUser(cluster.db, 'Steady Traffic');
  const live = await makePat(cluster.db, user, 'live');
  const revoked = await makePat(cluster.db, user, 'revoked');
  await revokeAccessToken(cluster.db, systemClock, revoked.id, user.id);
  const app = await makeClient(cluster.db, user);
  const codeList: string[] = [];
  for (let i = 0; i < codes; i += 20) {
    codeList.push(
      ...(await Promise.all(Array.from({ length: Math.min(20, codes - i) }, () => makeCode(cluster.db, app, user)))),
    );
  }
  let nextCode = 0;

  return {
    app,
    codesUsed: () => nextCode,
    nextCall(index) {
      const slot = index % 4;
      const api = cluster.api[Math.floor(index / 4) % cluster.api.length]!;
      if (slot === 3 && nextCode < codeList.length) {
        const auth = cluster.auth[Math.floor(index / 4) % cluster.auth.length]!;
        const code = codeList[nextCode]!;
        nextCode += 1;
        return {
          url: `${auth.url}/oauth/token`,
          headers: FORM,
          body: codeExchangeBody(app, code),
          tag: `code@${auth.name}`,
        };
      }
      if (slot === 1) return graphqlCall(api.url, revoked.token, `revoked@${api.name}`);
      return graphqlCall(api.url, live.token, `valid@${api.name}`);
    },
    ok(sample) {
      switch (kindOf(sample)) {
        case 'valid':
          return sample.status === 200 && sample.body.includes('"Steady Traffic"');
        case 'revoked':
          return sample.status === 401 && sample.error === 'invalid_token';
        case 'code':
          return pairOf(sample) !== undefined;
        default:
          return sample.status === 200;
      }
    },
  };
}

/** Health probes on every instance: /healthz (alive) and /readyz (dependencies reachable). */
export function probeCall(cluster: Cluster, index: number): HttpCall {
  const servers = cluster.all();
  const server = servers[Math.floor(index / 2) % servers.length]!;
  const path = index % 2 === 0 ? 'healthz' : 'readyz';
  return { url: `${server.url}/${path}`, headers: { accept: 'application/json' }, tag: `${path}@${server.name}` };
}

/**
 * The invariant counters of D-10 for this traffic; each must be 0.
 * - okForUncheckedToken: the revoked PAT answered 200 (a token that could not be checked passed);
 * - falseInvalidToken: the live PAT answered 401;
 * - invalidGrant: a fresh code answered invalid_grant;
 * - unavailableWithoutRetryAfter, server5xx, network: a wrong kind of failure.
 */
export function invariantCounters(samples: readonly Sample[]) {
  const of = (kind: TrafficKind) => samples.filter((s) => kindOf(s) === kind);
  return {
    okForUncheckedToken: of('revoked').filter((s) => s.status === 200).length,
    falseInvalidToken: of('valid').filter((s) => s.status === 401).length,
    invalidGrant: of('code').filter((s) => s.error === 'invalid_grant').length,
    unavailableWithoutRetryAfter: samples.filter((s) => s.status === 503 && !isUnavailable(s)).length,
    server5xx: samples.filter((s) => s.status >= 500 && s.status !== 503).length,
    network: samples.filter((s) => s.status === 0).length,
  };
}

/** Counts and latencies per kind of request. */
export function figuresByKind(samples: readonly Sample[]) {
  const kinds = [...new Set(samples.map(kindOf))];
  return Object.fromEntries(
    kinds.map((kind) => {
      const group = samples.filter((s) => kindOf(s) === kind);
      return [kind, { counts: countOutcomes(group), latencyMs: latencyOf(group) }];
    }),
  );
}
