// `npm run bench`: one run on loopback, keep-alive, 64 connections. Compares the API with a
// bare node:http server (the ceiling), the same with the API's token check and no GraphQL (the
// floor under the API), the API on PostgreSQL (issue 4), and three peers on the same schema and
// token check (Apollo Server 5; Mercurius 16 on Fastify 5 with graphql-jit; GraphQL Yoga 5),
// then measures authorization-code exchanges per second. Each server runs in its own process;
// autocannon runs in this one. Then issue 38's authorization server against node-oidc-provider
// (bench/authorization-server.ts: refresh grants, introspections, code exchanges and full
// sign-ins, Latchkey on PostgreSQL beside), issue 3's portal benchmark (bench/portal.ts: /graphql
// through the portal against the API directly and a bare node:http proxy, and the portal's
// JavaScript sizes), issue 20's page loads on a slow phone (bench/page-load.ts) and issue 4's
// token lookups at 1,000 and 1,000,000 tokens (bench/token-lookup.ts; BENCH_QUICK=1 leaves out
// the million), then issue 36's token creation with and without the security log
// (bench/token-creation.ts). About ten minutes; BENCH_QUICK=1 under five. The report goes to
// stdout; its figures also go to bench/results.md (results.ts), which the README links instead
// of copying them.
//
// PostgreSQL is a throwaway cluster test/support/postgres.ts starts (and installs on a fresh
// Debian machine when run as root), configured for tests (fsync and synchronous_commit off)
// but with a server's shared buffers (POSTGRES_SHARED_BUFFERS). The runs here read far more
// than they write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type PostgresCluster } from '../test/support/postgres.ts';
import { benchQuick } from './bench-config.ts';
import { createBenchData, type BenchData } from './bench-data.ts';
import { measureBatch, measureSteady, type Measurement } from './load.ts';
import { benchPageLoad, pageLoadFigures } from './page-load.ts';
import { benchPortal, portalFigures } from './portal.ts';
import { authorizationServerFigures, benchAuthorizationServer } from './authorization-server.ts';
import { apiFigures, printReport, type Report } from './report.ts';
import { RESULTS_FILE, writeResults, type Section } from './results.ts';
import { spawnTarget, type RunningTarget } from './spawn-target.ts';
import {
  benchTokenLookup,
  lookupFigures,
  POSTGRES_SHARED_BUFFERS,
  postgresEngine,
  sqliteEngine,
} from './token-lookup.ts';
import { benchTokenCreation, creationFigures } from './token-creation.ts';

const quick = benchQuick();
const WARMUP_SECONDS = quick ? 1 : 2;
/** BENCH_QUICK=1 (under five minutes in all): shorter and fewer rounds. */
const MEASURE_SECONDS = quick ? 3 : 5;
/**
 * The servers are measured in turn, three times, and each keeps its best round: on a 2-core
 * machine another process waking up during one server's turn would otherwise decide the ratios.
 */
const ROUNDS = quick ? 2 : 3;
const CODE_COUNT = 6000;
const SECTION = `\n${'─'.repeat(100)}\n`;

interface SteadyTarget {
  target: string;
  name: string;
  path: string;
  /** Whose database the server opens and whose PAT the load sends. */
  data: BenchData;
  /** Issue 34: deployed as its users deploy it: request logs at info to this file (and metrics on, for the API). */
  logged?: boolean;
}

const data = await createBenchData(CODE_COUNT);
let postgres: PostgresCluster | undefined;
let postgresData: BenchData | undefined;
let postgresSkipped = '';
try {
  postgres = await startPostgres({ sharedBuffers: POSTGRES_SHARED_BUFFERS });
  await postgres.prepareTemplate();
  postgresData = await createBenchData(0, { DATABASE_URL: await postgres.createDatabase() });
} catch (err) {
  // Not installed and not root (so not installable): the rest still runs, and says so.
  postgresSkipped = `skipped: PostgreSQL could not be started (${(err as Error).message.split('\n')[0]})`;
  await postgres?.stop();
  postgres = undefined;
}

const TARGETS: SteadyTarget[] = [
  { target: 'ceiling', name: 'bare node:http, fixed JSON (ceiling)', path: '/graphql', data },
  { target: 'token-check', name: 'bare node:http + token check, no GraphQL', path: '/graphql', data },
  { target: 'api', name: 'Latchkey API { profile { name } } + PAT', path: '/graphql', data },
  ...(postgresData
    ? [{ target: 'api', name: 'Latchkey API, same, on PostgreSQL', path: '/graphql', data: postgresData }]
    : []),
  { target: 'apollo', name: 'Apollo Server 5, same schema + token check', path: '/', data },
  { target: 'mercurius', name: 'Mercurius 16 (Fastify 5, JIT on), same', path: '/graphql', data },
  { target: 'yoga', name: 'GraphQL Yoga 5, same', path: '/graphql', data },
  // Issue 34: the same servers with their request logs on (info, to a file), the API's metrics on too.
  {
    target: 'api',
    name: 'Latchkey API, production: info logs to a file, metrics on',
    path: '/graphql',
    data,
    logged: true,
  },
  { target: 'apollo', name: 'Apollo Server 5, logging plugin (info, to a file)', path: '/', data, logged: true },
  {
    target: 'mercurius',
    name: 'Mercurius 16 (JIT), Fastify logger (info, to a file)',
    path: '/graphql',
    data,
    logged: true,
  },
];
const PEERS = TARGETS.filter((t) => !t.logged).slice(-3);
const LOGGED = TARGETS.filter((t) => t.logged);
const logDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-logs-'));

/** The environment of a target's process: its data's, plus the log file of a logged one. */
function envOf(target: SteadyTarget, index: number): Record<string, string> {
  return target.logged
    ? { ...target.data.env, BENCH_LOG_FILE: join(logDir, `${index}-${target.target}.log`) }
    : target.data.env;
}

function graphqlRequest(target: SteadyTarget) {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.data.pat}` },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  };
}

async function probe(server: RunningTarget, target: SteadyTarget): Promise<void> {
  const response = await fetch(`${server.url}${target.path}`, graphqlRequest(target));
  const text = await response.text();
  if (response.status !== 200 || !text.includes('Ada Lovelace')) {
    throw new Error(`${target.name}: probe answered ${response.status} ${text.slice(0, 200)}`);
  }
}

async function runSteady(): Promise<Map<SteadyTarget, Measurement>> {
  const started = await Promise.allSettled(TARGETS.map((t, i) => spawnTarget(t.target, envOf(t, i))));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const best = new Map<SteadyTarget, Measurement>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, target] of TARGETS.entries()) {
        if (round === 0) await probe(servers[i]!, target);
        const measured = await measureSteady(
          target.name,
          { url: `${servers[i]!.url}${target.path}`, ...graphqlRequest(target) },
          { warmup: round === 0 ? WARMUP_SECONDS : 0, measure: MEASURE_SECONDS },
          servers[i]!.pid,
        );
        const previous = best.get(target);
        if (previous === undefined || measured.requestsPerSecond > previous.requestsPerSecond)
          best.set(target, measured);
      }
    }
    return best;
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
    if (first.status !== 200)
      return `skipped: the probe exchange answered ${first.status} ${(await first.text()).slice(0, 200)}`;
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

const sections: Section[] = [];
/** How long each part took, for keeping BENCH_QUICK=1 under five minutes. */
const took: string[] = [];
let partStarted = performance.now();
function tookSince(part: string): void {
  took.push(`${part} ${((performance.now() - partStarted) / 1000).toFixed(0)} s`);
  partStarted = performance.now();
}
try {
  console.log(
    `Latchkey benchmark: loopback, keep-alive, 64 connections; ${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${MEASURE_SECONDS} s per server (best round kept)\n`,
  );
  const best = await runSteady();
  const [ceiling, tokenCheck, api] = TARGETS.slice(0, 3).map((t) => best.get(t)!);
  const [apollo, mercurius, yoga] = PEERS.map((t) => best.get(t)!);
  const [apiLogged, apolloLogged, mercuriusLogged] = LOGGED.map((t) => best.get(t)!);
  const onPostgres = TARGETS.find((t) => t.data === postgresData);
  const exchanges = await runExchanges();
  const report: Report = {
    ceiling: ceiling!,
    tokenCheck: tokenCheck!,
    api: api!,
    apollo: apollo!,
    peers: [mercurius!, yoga!],
    apiPostgres: onPostgres ? best.get(onPostgres)! : postgresSkipped,
    exchanges,
    production: { api: apiLogged!, apollo: apolloLogged!, mercurius: mercuriusLogged! },
  };
  sections.push({ section: 'API (issues 2 and 4)', goals: printReport(report), figures: apiFigures(report) });

  tookSince('API');
  console.log(SECTION);
  const authorizationServer = await benchAuthorizationServer({
    ...(postgres ? { postgresUrl: await postgres.createDatabase() } : {}),
    postgresSkipped,
  });
  sections.push({
    section: 'Authorization server against node-oidc-provider (issue 38)',
    goals: authorizationServer.goals,
    figures: authorizationServerFigures(authorizationServer),
  });

  tookSince('authorization server');
  console.log(SECTION);
  const portal = await benchPortal();
  sections.push({ section: 'Portal (issue 3)', goals: portal.goals, figures: portalFigures(portal) });

  tookSince('portal');
  console.log(SECTION);
  const pageLoad = await benchPageLoad();
  sections.push({
    section: 'Portal page load on a slow phone (issue 20)',
    goals: pageLoad.goals,
    figures: pageLoadFigures(pageLoad),
  });

  tookSince('page load');
  console.log(SECTION);
  const lookups = await benchTokenLookup({
    engines: postgres ? [sqliteEngine(), postgresEngine(postgres.url())] : [sqliteEngine()],
    quick,
  });
  if (!postgres) console.log(`PostgreSQL token lookups: ${postgresSkipped}`);
  sections.push({ section: 'Token lookup (issue 4)', goals: lookups.goals, figures: lookupFigures(lookups) });

  tookSince('token lookup');
  console.log(SECTION);
  const creation = await benchTokenCreation({
    engines: postgres ? [sqliteEngine(), postgresEngine(postgres.url())] : [sqliteEngine()],
    quick,
  });
  sections.push({
    section: 'Token creation and the security log (issue 36)',
    goals: creation.goals,
    figures: creationFigures(creation),
  });

  tookSince('token creation');
  console.log(`${SECTION}Summary of the goals`);
  for (const section of sections) {
    console.log(`  ${section.section}`);
    if (section.goals.length === 0) console.log('    not checked (BENCH_QUICK=1 leaves out the tables it is about)');
    for (const { goal, measured, pass } of section.goals)
      console.log(`    ${pass ? 'PASS' : 'FAIL'}  ${goal.padEnd(50)} measured ${measured}`);
  }
  console.log(`\nTime taken: ${took.join(', ')}`);
  writeResults(sections, quick);
  // On stderr, so stdout stays the report itself.
  console.error(`\nFigures written to ${RESULTS_FILE}`);
} finally {
  rmSync(data.dataDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
  if (postgresData) rmSync(postgresData.dataDir, { recursive: true, force: true });
  await postgres?.stop();
}
