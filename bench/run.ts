// `npm run bench`: one run on loopback, keep-alive, 64 connections. Compares the API with a
// bare node:http server (the ceiling), the same with the API's token check and no GraphQL (the
// floor under the API), and Apollo Server 5 on the same schema and token check, then measures
// authorization-code exchanges per second. Each server runs in its own process; autocannon runs
// in this one. Takes about a minute and a half.
import { rmSync } from 'node:fs';
import { createBenchData } from './bench-data.ts';
import { measureBatch, measureSteady, type Measurement } from './load.ts';
import { printReport } from './report.ts';
import { spawnTarget, type RunningTarget } from './spawn-target.ts';

const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = 5;
/**
 * The servers are measured in turn, three times, and each keeps its best round: on a 2-core
 * machine another process waking up during one server's turn would otherwise decide the ratios.
 */
const ROUNDS = 3;
const CODE_COUNT = 6000;

interface SteadyTarget {
  target: string;
  name: string;
  path: string;
}

const TARGETS: SteadyTarget[] = [
  { target: 'ceiling', name: 'bare node:http, fixed JSON (ceiling)', path: '/graphql' },
  { target: 'token-check', name: 'bare node:http + token check, no GraphQL', path: '/graphql' },
  { target: 'api', name: 'Latchkey API { profile { name } } + PAT', path: '/graphql' },
  { target: 'apollo', name: 'Apollo Server 5, same schema + token check', path: '/' },
];

const data = await createBenchData(CODE_COUNT);
const graphqlRequest = {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${data.pat}` },
  body: JSON.stringify({ query: '{ profile { name } }' }),
};

async function probe(server: RunningTarget, target: SteadyTarget): Promise<void> {
  const response = await fetch(`${server.url}${target.path}`, graphqlRequest);
  const text = await response.text();
  if (response.status !== 200 || !text.includes('Ada Lovelace')) {
    throw new Error(`${target.name}: probe answered ${response.status} ${text.slice(0, 200)}`);
  }
}

async function runSteady(): Promise<Measurement[]> {
  const started = await Promise.allSettled(TARGETS.map((t) => spawnTarget(t.target, data.env)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const best: (Measurement | undefined)[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, target] of TARGETS.entries()) {
        if (round === 0) await probe(servers[i]!, target);
        const measured = await measureSteady(
          target.name,
          { url: `${servers[i]!.url}${target.path}`, ...graphqlRequest },
          { warmup: round === 0 ? WARMUP_SECONDS : 0, measure: MEASURE_SECONDS },
          servers[i]!.pid,
        );
        if (best[i] === undefined || measured.requestsPerSecond > best[i]!.requestsPerSecond) best[i] = measured;
      }
    }
    return best as Measurement[];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

async function runExchanges(): Promise<Measurement | string> {
  const server = await spawnTarget('auth', data.env);
  try {
    const codes = [...data.codes];
    const form = (code: string) =>
      new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: data.client.redirectUri,
        client_id: data.client.id,
        client_secret: data.client.secret,
      }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const first = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers, body: form(codes.pop()!) });
    if (first.status === 404) return 'skipped: POST /oauth/token answered 404 (endpoint not built yet)';
    if (first.status !== 200) return `skipped: the probe exchange answered ${first.status} ${(await first.text()).slice(0, 200)}`;
    return await measureBatch('code exchanges (POST /oauth/token)', {
      url: server.url,
      amount: codes.length,
      requests: [
        {
          method: 'POST',
          path: '/oauth/token',
          headers,
          setupRequest: (request) => ({ ...request, body: form(codes.pop() ?? 'exhausted') }),
        },
      ],
    });
  } finally {
    await server.stop();
  }
}

try {
  console.log(
    `Latchkey benchmark: loopback, keep-alive, 64 connections; ${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${MEASURE_SECONDS} s per server (best round kept)\n`,
  );
  const [ceiling, tokenCheck, api, apollo] = await runSteady();
  const exchanges = await runExchanges();
  printReport({ ceiling: ceiling!, tokenCheck: tokenCheck!, api: api!, apollo: apollo!, exchanges });
} finally {
  rmSync(data.dataDir, { recursive: true, force: true });
}
