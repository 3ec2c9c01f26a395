// Issue 3's benchmark additions (`node bench/portal.ts`, or benchPortal() from bench/run.ts):
// 1. POST /graphql through the portal (session cookie → BFF → API) against the API directly
//    with a PAT, same query, same run, loopback, keep-alive, 64 connections: goal ≥ 60%. A
//    do-nothing node:http reverse proxy in front of the same API runs in the same rounds: what
//    any extra hop costs on this machine, so the portal's own cost shows apart from it.
// 2. The JavaScript the portal sends before the API tokens page first renders (gzip), and the
//    Explorer's lazy chunk: goal ≤ 130 KB for the former.
// The API, the BFF and the bare proxy each run in their own process (bench/targets). The
// authorization server runs in this process: it is needed for the sign-in and its discovery
// document must name its real address, and it is idle while the load runs (access tokens
// outlive the run).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase } from '@latchkey/process';
import { createAuthApp } from '../apps/auth/src/app.ts';
import { ensurePortalBuilt } from '../scripts/build-portal.ts';
import { CookieJar, fetchPage, submitSignIn, type PageResult } from '../test/support/browserless-flow.ts';
import { createBenchData, type BenchData } from './bench-data.ts';
import { CONNECTIONS, measureSteady, type Measurement } from './load.ts';
import { processCpuSeconds } from './process-cpu.ts';
import type { Figure, Goal } from './results.ts';
import { spawnTarget, type RunningTarget } from './spawn-target.ts';

/** Issue 3's goals. */
export const PORTAL_GOALS = { proxyRatio: 0.6, tokensPageJsBytes: 130_000 } as const;

export interface PortalBenchOptions {
  warmupSeconds?: number;
  measureSeconds?: number;
  /** Direct, portal and bare-proxy runs take turns this many times; each keeps its best round. */
  rounds?: number;
  /** Print the report as well as returning it (default true). */
  print?: boolean;
  /** apps/portal/dist unless given. */
  portalDist?: string;
  /** Extra Node flags for the BFF process, e.g. `--cpu-prof` to see where its time goes. */
  bffNodeArgs?: readonly string[];
}

export interface ProxyMeasurement extends Measurement {
  /** The API process's CPU per answered request in the same run (on the portal row: the API behind the BFF). */
  apiCpuMicrosPerRequest?: number;
}

export interface BundleFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleGroup {
  name: string;
  files: BundleFile[];
  gzipBytes: number;
}

export interface PortalBenchResult {
  direct: ProxyMeasurement;
  portal: ProxyMeasurement;
  /** A do-nothing node:http reverse proxy (keep-alive) in front of the same API. */
  bareProxy: ProxyMeasurement;
  /** Portal requests per second ÷ direct requests per second (the goal's ratio). */
  ratio: number;
  /** Bare proxy requests per second ÷ direct: the price of any hop here. */
  bareProxyRatio: number;
  /** Portal requests per second ÷ bare proxy: what the portal's own work leaves of a plain hop. */
  portalToBareProxy: number;
  /** Before first render of /tokens, the Explorer's lazy chunk, and the Explorer with its own lazy imports. */
  bundles: BundleGroup[];
  goals: Goal[];
}

const DEFAULTS = { warmupSeconds: 2, measureSeconds: 5, rounds: 3 } as const;
const DEFAULT_DIST = fileURLToPath(new URL('../apps/portal/dist', import.meta.url));
const QUERY_BODY = JSON.stringify({ query: '{ profile { name } }' });
/** The portal's public URL in the bench configuration (bench-config.ts). */
const PORTAL_URL = 'https://portal.bench.invalid';
/** What a TLS-terminating proxy in front of the BFF adds (TRUST_PROXY=loopback). */
const BEHIND_TLS = { 'x-forwarded-proto': 'https' };
const USER = { email: 'bench@example.test', password: 'bench quiet lantern' };

// ---------------------------------------------------------------------------------------------
// The system

export interface PortalBenchSystem {
  authUrl: string;
  api: RunningTarget;
  bff: RunningTarget;
  /** bench/targets/bare-proxy.target.ts in front of `api`. */
  bareProxy: RunningTarget;
  stop(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The API as bench/run.ts runs it (production configuration); the authorization server here;
 * the BFF in its own process. The latter two run with NODE_ENV=test, since their upstreams are
 * plain http on loopback and production refuses http URLs, and with the public https portal
 * URL behind a trusted TLS-terminating proxy, as in production (so the cookies are __Host-).
 * Exported, with signInThroughPortal, for profiling scripts (`bffNodeArgs: ['--cpu-prof']`).
 */
export async function startPortalBenchSystem(
  data: BenchData,
  bffNodeArgs: readonly string[] = [],
): Promise<PortalBenchSystem> {
  const authServer = createServer();
  const authUrl = await listen(authServer);
  const portalEnv = {
    ...data.env,
    NODE_ENV: 'test',
    GRAPHQL_INTROSPECTION: 'false',
    DEMO_ACCOUNT: 'false',
    AUTH_URL: authUrl,
    PORTAL_URL,
    PORTAL_PORT: '0',
    TRUST_PROXY: 'loopback',
  };
  const authConfig = loadConfig(portalEnv);
  const authDb = await openDatabase(authConfig, systemClock);
  authServer.on(
    'request',
    createAuthApp({ config: authConfig, db: authDb, clock: systemClock, logger: createLogger({ level: 'silent' }) }),
  );
  const started: RunningTarget[] = [];
  try {
    const apiTarget = await spawnTarget('api', data.env);
    started.push(apiTarget);
    // allSettled: when one fails to start, the other is still stopped below.
    const proxies = await Promise.allSettled([
      spawnTarget('bff', { ...portalEnv, API_URL: apiTarget.url }, bffNodeArgs),
      spawnTarget('bare-proxy', { ...portalEnv, API_URL: apiTarget.url }),
    ]);
    for (const p of proxies) if (p.status === 'fulfilled') started.push(p.value);
    const failed = proxies.find((p) => p.status === 'rejected');
    if (failed) throw failed.reason;
    const [bff, bareProxy] = started.slice(1) as [RunningTarget, RunningTarget];
    return {
      authUrl,
      api: apiTarget,
      bff,
      bareProxy,
      async stop() {
        await Promise.all([bff.stop(), bareProxy.stop(), apiTarget.stop()]);
        authServer.closeAllConnections();
        await new Promise<void>((resolve) => authServer.close(() => resolve()));
        await authDb.destroy();
      },
    };
  } catch (err) {
    await Promise.all(started.map((t) => t.stop()));
    authServer.close();
    await authDb.destroy();
    throw err;
  }
}

/**
 * Signs the bench user in the way a browser does: GET /bff/login, the authorization server's
 * sign-in page, the redirect back to /bff/callback. Returns the Cookie header the SPA's
 * requests then carry (the session cookie alone).
 */
export async function signInThroughPortal(system: PortalBenchSystem): Promise<string> {
  const portalJar = new CookieJar();
  const authJar = new CookieJar();
  const navigate = async (pathAndQuery: string): Promise<Response> => {
    const cookie = portalJar.header();
    const response = await fetch(`${system.bff.url}${pathAndQuery}`, {
      headers: { ...BEHIND_TLS, accept: 'text/html', ...(cookie === undefined ? {} : { cookie }) },
      redirect: 'manual',
    });
    portalJar.store(response);
    await response.body?.cancel();
    return response;
  };
  const start = await navigate('/bff/login?returnTo=%2Ftokens');
  const authorizeUrl = start.headers.get('location');
  if (start.status !== 302 || authorizeUrl === null) throw new Error(`/bff/login answered ${start.status}`);
  const flow = { authUrl: system.authUrl };
  let page: PageResult = await fetchPage(flow, authJar, authorizeUrl);
  for (let hops = 0; hops < 6 && !page.location?.startsWith(`${PORTAL_URL}/`); hops += 1) {
    if (page.step === 'signin') page = await submitSignIn(flow, authJar, page, USER);
    else if (page.step === 'redirect' && page.location?.startsWith(system.authUrl))
      page = await fetchPage(flow, authJar, page.location);
    else throw new Error(`sign-in stopped at the authorization server: ${page.step} ${page.status}`);
  }
  if (!page.location?.startsWith(`${PORTAL_URL}/`))
    throw new Error('the authorization server did not send the browser back');
  const callback = new URL(page.location);
  const done = await navigate(`${callback.pathname}${callback.search}`);
  const cookie = portalJar.header();
  if (done.status !== 302 || cookie === undefined || !cookie.includes('lk_portal_sid=')) {
    throw new Error(`/bff/callback answered ${done.status} without a session cookie`);
  }
  return cookie;
}

// ---------------------------------------------------------------------------------------------
// /graphql through the portal against the API directly

interface Run {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The process autocannon's load lands on (its CPU is `cpuMicrosPerRequest`), and the API when that is another. */
  pid: number;
  apiPid?: number;
}

async function probe(run: Run): Promise<void> {
  const response = await fetch(run.url, { method: 'POST', headers: run.headers, body: QUERY_BODY });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('Ada Lovelace')) {
    throw new Error(`${run.name}: probe answered ${response.status} ${text.slice(0, 200)}`);
  }
}

async function measureRun(run: Run, seconds: number): Promise<ProxyMeasurement> {
  const apiBefore = run.apiPid === undefined ? undefined : processCpuSeconds(run.apiPid);
  const measured: ProxyMeasurement = await measureSteady(
    run.name,
    { url: run.url, method: 'POST', headers: run.headers, body: QUERY_BODY },
    { warmup: 0, measure: seconds },
    run.pid,
  );
  const apiAfter = run.apiPid === undefined ? undefined : processCpuSeconds(run.apiPid);
  const answered = measured.ok + measured.failed;
  if (run.apiPid === undefined) measured.apiCpuMicrosPerRequest = measured.cpuMicrosPerRequest;
  else if (apiBefore !== undefined && apiAfter !== undefined && answered > 0) {
    measured.apiCpuMicrosPerRequest = ((apiAfter - apiBefore) * 1e6) / answered;
  }
  return measured;
}

async function measureProxy(
  system: PortalBenchSystem,
  data: BenchData,
  options: Required<Pick<PortalBenchOptions, 'warmupSeconds' | 'measureSeconds' | 'rounds'>>,
): Promise<[ProxyMeasurement, ProxyMeasurement, ProxyMeasurement]> {
  const cookie = await signInThroughPortal(system);
  const direct = { 'content-type': 'application/json', authorization: `Bearer ${data.pat}` };
  const runs: [Run, Run, Run] = [
    {
      name: 'API directly, PAT',
      url: `${system.api.url}/graphql`,
      headers: direct,
      pid: system.api.pid,
    },
    {
      name: 'through the portal: cookie → BFF → API',
      url: `${system.bff.url}/bff/graphql`,
      // What the SPA's fetch sends (portal contract), plus the TLS proxy's header.
      headers: {
        ...BEHIND_TLS,
        'content-type': 'application/json',
        cookie,
        'x-latchkey-portal': '1',
        origin: PORTAL_URL,
        'sec-fetch-site': 'same-origin',
      },
      pid: system.bff.pid,
      apiPid: system.api.pid,
    },
    {
      name: 'bare node:http proxy → API, PAT',
      url: `${system.bareProxy.url}/graphql`,
      headers: direct,
      pid: system.bareProxy.pid,
      apiPid: system.api.pid,
    },
  ];
  for (const run of runs) await probe(run);
  if (options.warmupSeconds > 0) for (const run of runs) await measureRun(run, options.warmupSeconds);
  const best: (ProxyMeasurement | undefined)[] = runs.map(() => undefined);
  for (let round = 0; round < options.rounds; round += 1) {
    // Rotate which goes first, so none always follows the same one's leftovers.
    for (let k = 0; k < runs.length; k += 1) {
      const i = (round + k) % runs.length;
      const measured = await measureRun(runs[i]!, options.measureSeconds);
      if (best[i] === undefined || measured.requestsPerSecond > best[i]!.requestsPerSecond) best[i] = measured;
    }
  }
  return best as [ProxyMeasurement, ProxyMeasurement, ProxyMeasurement];
}

// ---------------------------------------------------------------------------------------------
// The portal's JavaScript

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function ensureBuilt(distDir: string): string {
  // Rebuilt when the portal's sources changed since the last build (as `npm start` does), so
  // the sizes are those of the code as it is, not of an older build left in dist/.
  if (distDir === DEFAULT_DIST) ensurePortalBuilt();
  const manifestFile = `${distDir}/.vite/manifest.json`;
  if (!existsSync(manifestFile))
    throw new Error(`${distDir} has no Vite manifest (.vite/manifest.json): build the portal first`);
  return manifestFile;
}

function chunkKey(manifest: Manifest, test: (key: string, chunk: ManifestChunk) => boolean, what: string): string {
  const key = Object.keys(manifest).find((k) => test(k, manifest[k]!));
  if (key === undefined) throw new Error(`the portal's Vite manifest has no ${what}`);
  return key;
}

/**
 * The chunks `roots` load before running: themselves and their static imports, transitively
 * (and their lazy imports too with `followDynamic`), leaving out those already `loaded`.
 */
function closure(manifest: Manifest, roots: string[], loaded = new Set<string>(), followDynamic = false): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || loaded.has(key) || manifest[key] === undefined) return;
    seen.add(key);
    for (const next of manifest[key]!.imports ?? []) visit(next);
    if (followDynamic) for (const next of manifest[key]!.dynamicImports ?? []) visit(next);
  };
  for (const root of roots) visit(root);
  return seen;
}

function group(name: string, distDir: string, manifest: Manifest, keys: Iterable<string>): BundleGroup {
  const files = [...keys]
    .map((key) => manifest[key]!.file)
    .filter((file) => file.endsWith('.js'))
    .sort()
    .map((file) => {
      const content = readFileSync(`${distDir}/${file}`);
      // zlib's default level, as a compressing server (and Vite's own size report) uses.
      return { file, bytes: content.length, gzipBytes: gzipSync(content).length };
    });
  return { name, files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

/**
 * From the build's manifest: what /tokens needs before it can render (the entry with its
 * static imports, which index.html modulepreloads, and a lazy tokens route if there is one),
 * and what opening the Explorer adds on top (its route chunk and GraphiQL's, with the static
 * imports not already loaded; then also everything they load lazily, Monaco included).
 */
export function measurePortalBundles(distDir: string = DEFAULT_DIST): BundleGroup[] {
  const manifest = JSON.parse(readFileSync(ensureBuilt(distDir), 'utf8')) as Manifest;
  const entry = chunkKey(manifest, (_k, c) => c.isEntry === true, 'entry');
  // Since issue 20 the small pages are part of the entry; a lazy tokens route counts if there is one.
  const tokens = Object.keys(manifest).filter((k) => /(^|\/)routes\/tokens\.tsx$/.test(k));
  const explorer = chunkKey(manifest, (k) => /(^|\/)routes\/graphiql\.tsx$/.test(k), 'Explorer route chunk');
  // The Explorer's route renders the editor's own lazy chunk (GraphiQL) at once.
  const editor = Object.keys(manifest).filter((k) => /(^|\/)graphiql\/components\/explorer\.tsx$/.test(k));
  const initial = closure(manifest, [entry, ...tokens]);
  const explorerChunk = closure(manifest, [explorer, ...editor], initial);
  const explorerAll = closure(manifest, [explorer, ...editor], initial, true);
  return [
    group('JS before /tokens first renders', distDir, manifest, initial),
    group('Explorer lazy chunks (route, GraphiQL + their static imports)', distDir, manifest, explorerChunk),
    group('Explorer with its own lazy imports (Monaco, Prettier)', distDir, manifest, explorerAll),
  ];
}

// ---------------------------------------------------------------------------------------------

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export function printPortalReport(result: PortalBenchResult): void {
  const rows = [result.direct, result.portal, result.bareProxy];
  const width = Math.max(...rows.map((r) => r.name.length));
  const cpu = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0)).padStart(13);
  console.log(
    `${'name'.padEnd(width)}  ${'req/s'.padStart(7)}  ${'÷ direct'.padStart(8)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'CPU µs/req'.padStart(13)}  ${'API CPU µs/req'.padStart(14)}  statuses`,
  );
  for (const row of rows) {
    const toDirect = (row.requestsPerSecond / result.direct.requestsPerSecond).toFixed(2);
    console.log(
      `${row.name.padEnd(width)}  ${row.requestsPerSecond.toFixed(0).padStart(7)}  ${toDirect.padStart(8)}  ${String(row.p50).padStart(6)}  ${String(row.p99).padStart(6)}  ${cpu(row.cpuMicrosPerRequest)}  ${cpu(row.apiCpuMicrosPerRequest).padStart(14)}  ${row.statuses}`,
    );
  }
  console.log(
    `(CPU µs/req: the process the load hits, the API, the BFF or the bare proxy; gzip sizes at zlib's default level, 1 KB = 1000 bytes)`,
  );
  console.log(
    `\nThrough the portal ÷ direct ${result.ratio.toFixed(2)}; bare proxy ÷ direct ${result.bareProxyRatio.toFixed(2)}; ` +
      `portal ÷ bare proxy ${result.portalToBareProxy.toFixed(2)} (the share of a do-nothing hop's throughput the portal keeps)`,
  );
  for (const bundle of result.bundles) {
    console.log(`\n${bundle.name}: ${kb(bundle.gzipBytes)} gzip in ${bundle.files.length} files`);
    for (const f of bundle.files) console.log(`  ${kb(f.gzipBytes).padStart(9)}  (${kb(f.bytes)} raw)  ${f.file}`);
  }
  console.log('\nGoals (issue 3):');
  for (const goal of result.goals)
    console.log(`  ${goal.pass ? 'PASS' : 'FAIL'}  ${goal.goal.padEnd(46)} measured ${goal.measured}`);
}

/** The portal's figures for bench/results.md: the ratios printed above, with the rates they divide, and the sizes. */
export function portalFigures(result: PortalBenchResult): Figure[] {
  const rate = (m: ProxyMeasurement) => `${m.requestsPerSecond.toFixed(0)} req/s`;
  return [
    {
      figure: 'Through the portal ÷ API directly',
      measured: `${result.ratio.toFixed(2)} (portal ${rate(result.portal)}, direct ${rate(result.direct)}; the BFF's CPU per request ${result.portal.cpuMicrosPerRequest?.toFixed(0) ?? '-'} µs)`,
    },
    {
      figure: 'Bare proxy ÷ API directly',
      measured: `${result.bareProxyRatio.toFixed(2)} (${rate(result.bareProxy)})`,
    },
    { figure: 'Through the portal ÷ bare proxy', measured: result.portalToBareProxy.toFixed(2) },
    ...result.bundles.map((b) => ({ figure: b.name, measured: `${kb(b.gzipBytes)} gzip in ${b.files.length} files` })),
  ];
}

/** Runs both parts of issue 3's benchmark; each server in its own process on loopback. */
export async function benchPortal(options: PortalBenchOptions = {}): Promise<PortalBenchResult> {
  const settings = {
    warmupSeconds: options.warmupSeconds ?? DEFAULTS.warmupSeconds,
    measureSeconds: options.measureSeconds ?? DEFAULTS.measureSeconds,
    rounds: options.rounds ?? DEFAULTS.rounds,
  };
  const print = options.print ?? true;
  if (print) {
    console.log(
      `Portal benchmark: loopback, keep-alive, ${CONNECTIONS} connections; ${settings.warmupSeconds} s warm-up, then ${settings.rounds} rounds of ${settings.measureSeconds} s taking turns (best round kept)\n`,
    );
  }
  const bundles = measurePortalBundles(options.portalDist);
  const data = await createBenchData(0);
  let direct: ProxyMeasurement;
  let portal: ProxyMeasurement;
  let bareProxy: ProxyMeasurement;
  try {
    const system = await startPortalBenchSystem(data, options.bffNodeArgs);
    try {
      [direct, portal, bareProxy] = await measureProxy(system, data, settings);
    } finally {
      await system.stop();
    }
  } finally {
    rmSync(data.dataDir, { recursive: true, force: true });
  }
  const ratio = portal.requestsPerSecond / direct.requestsPerSecond;
  const initial = bundles[0]!;
  const result: PortalBenchResult = {
    direct,
    portal,
    bareProxy,
    ratio,
    bareProxyRatio: bareProxy.requestsPerSecond / direct.requestsPerSecond,
    portalToBareProxy: portal.requestsPerSecond / bareProxy.requestsPerSecond,
    bundles,
    goals: [
      {
        goal: `/graphql through the portal ≥ ${PORTAL_GOALS.proxyRatio * 100}% of direct`,
        measured: `${(ratio * 100).toFixed(0)}%`,
        pass: ratio >= PORTAL_GOALS.proxyRatio,
      },
      {
        goal: 'direct, portal and bare proxy answered only 2xx',
        measured: `${portal.failed} + ${direct.failed} + ${bareProxy.failed} failed`,
        pass: portal.failed === 0 && direct.failed === 0 && bareProxy.failed === 0,
      },
      {
        goal: `JS before /tokens renders ≤ ${kb(PORTAL_GOALS.tokensPageJsBytes)} gzip`,
        measured: kb(initial.gzipBytes),
        pass: initial.gzipBytes <= PORTAL_GOALS.tokensPageJsBytes,
      },
    ],
  };
  if (print) printPortalReport(result);
  return result;
}

if (import.meta.main) {
  const result = await benchPortal();
  process.exitCode = result.goals.every((g) => g.pass) ? 0 : 1;
}
