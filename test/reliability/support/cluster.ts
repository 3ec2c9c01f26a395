// N authorization servers, N APIs and N portals, each a separate process, on one PostgreSQL
// database and one Redis: the scale-out layout of issue 4. Every instance gets the same
// secrets and the same public URLs, as behind a load balancer:
// - AUTH_URL is a round-robin balancer in front of every authorization server: it is the
//   issuer, so all instances must name the same one, and the portals' back-channel calls
//   (code exchange, refresh, /account) spread over the instances through it;
// - PORTAL_URL is a balancer in front of every portal: the portal client's one registered
//   redirect URI (each instance provisions it from its own PORTAL_URL, so they must agree);
// - portal i proxies /graphql straight to API i, so each API instance serves a portal.
// Tests reach one instance in particular through its own port (ServerProcess.url).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateToken, randomBase62, TokenPrefix } from '@latchkey/credentials';
import { createDatabase, type Db } from '@latchkey/db';
import { reservedPorts } from '../../support/loopback.ts';
import { startLoadBalancer, type LoadBalancer } from './load-balancer.ts';
import { REPO_ROOT, spawnServer, type ServerKind, type ServerProcess } from './server-process.ts';

export interface ClusterOptions {
  databaseUrl: string;
  redisUrl?: string;
  /** Instances of each server; two of each by default. */
  auth?: number;
  api?: number;
  portal?: number;
  /** More environment for every instance and the CLI (DATABASE_TIMEOUT_MS, RATE_LIMIT_..., LOG_LEVEL). */
  env?: Record<string, string>;
}

export interface Cluster {
  readonly auth: ServerProcess[];
  readonly api: ServerProcess[];
  readonly portal: ServerProcess[];
  /** The public AUTH_URL (the balancer): the issuer every instance names. */
  readonly authUrl: string;
  /** The public PORTAL_URL (the balancer); the SPA's Origin. */
  readonly portalUrl: string;
  /** What every instance and the CLI get in their environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The test's own connection to the same database, for fixtures and for checking rows. */
  readonly db: Db;
  /** Where each instance's log file is. */
  readonly dir: string;
  all(): ServerProcess[];
  /** Runs the admin CLI against the cluster's database; its JSON output, parsed. */
  cli(args: string[]): Promise<unknown>;
  /** The last log lines of every instance, for a failure message. */
  logTails(lines?: number): string;
  stop(): Promise<void>;
}

/** What all instances share: secrets and public URLs, as a deployment would set them. */
function sharedEnvironment(options: ClusterOptions, authUrl: string, portalUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    ...(options.redisUrl === undefined ? {} : { REDIS_URL: options.redisUrl }),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    PORTAL_CLIENT_ID: `lkc_${randomBase62(24)}`,
    PORTAL_CLIENT_SECRET: generateToken(TokenPrefix.clientSecret),
    AUTH_URL: authUrl,
    PORTAL_URL: portalUrl,
    DEMO_ACCOUNT: 'false',
    // Sign-ins and token requests are the set-up and the load of many scenarios; the scenarios
    // about limits set their own. (A request counts against the failed-authentication limit
    // while it runs, so a burst of concurrent token requests from one address would trip the
    // default of 20 without a single failure.)
    RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
    RATE_LIMIT_TOKEN_PER_MINUTE: '100000',
    SHUTDOWN_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'info',
    ...options.env,
  };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const counts = { auth: options.auth ?? 2, api: options.api ?? 2, portal: options.portal ?? 2 };
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-cluster-'));
  const ports = await reservedPorts(counts.auth + counts.api + counts.portal);
  const authPorts = ports.slice(0, counts.auth);
  const apiPorts = ports.slice(counts.auth, counts.auth + counts.api);
  const portalPorts = ports.slice(counts.auth + counts.api);
  const balancers: LoadBalancer[] = [];
  const authBalancer = await startLoadBalancer(authPorts);
  balancers.push(authBalancer);
  const portalBalancer = await startLoadBalancer(portalPorts);
  balancers.push(portalBalancer);
  const env = sharedEnvironment(options, authBalancer.url, portalBalancer.url);

  const auth: ServerProcess[] = [];
  const api: ServerProcess[] = [];
  const portal: ServerProcess[] = [];

  function start(kind: ServerKind, index: number, port: number, own: Record<string, string>): ServerProcess {
    const name = `${kind === 'bff' ? 'portal' : kind}-${index + 1}`;
    const dataDir = join(dir, name);
    mkdirSync(dataDir, { recursive: true });
    return spawnServer({
      name,
      kind,
      port,
      logFile: join(dir, `${name}.log`),
      // Each instance its own DATA_DIR: nothing on a local disk may be shared state.
      env: { ...env, DATA_DIR: dataDir, ...own },
    });
  }

  const apiUrlFor = (i: number) => `http://127.0.0.1:${apiPorts[i % apiPorts.length]!}`;

  let db: Db | undefined;
  const everyone = () => [...auth, ...api, ...portal];
  const stopAll = async () => {
    await Promise.all(everyone().map((p) => p.stop()));
    await Promise.all(balancers.map((b) => b.close()));
    await db?.destroy();
  };

  try {
    // The first authorization server migrates the schema and provisions the portal client
    // alone, as a deployment migrates before it starts the fleet: the provisioning
    // (ensureFirstPartyClient) reads then inserts, so simultaneous first starts could race.
    const authEnv = (port: number) => ({ AUTH_PORT: String(port), API_URL: apiUrlFor(0) });
    auth.push(start('auth', 0, authPorts[0]!, authEnv(authPorts[0]!)));
    await auth[0]!.waitReady(30_000);
    authPorts.slice(1).forEach((port, i) => auth.push(start('auth', i + 1, port, authEnv(port))));
    apiPorts.forEach((port, i) =>
      api.push(start('api', i, port, { API_PORT: String(port), API_URL: `http://127.0.0.1:${port}` })),
    );
    portalPorts.forEach((port, i) =>
      portal.push(start('bff', i, port, { PORTAL_PORT: String(port), API_URL: apiUrlFor(i) })),
    );
    await Promise.all(everyone().map((p) => p.waitReady(30_000)));
    db = createDatabase({
      url: options.databaseUrl,
      poolMax: 4,
      timeoutMs: 10_000,
      applicationName: 'reliability-test',
    });
  } catch (err) {
    // The logs say why an instance did not start; the error carries their tail.
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const fixtureDb = db;

  return {
    auth,
    api,
    portal,
    authUrl: authBalancer.url,
    portalUrl: portalBalancer.url,
    env,
    db: fixtureDb,
    dir,
    all: everyone,
    cli: (args) => runCli({ ...env, DATA_DIR: join(dir, 'cli') }, args),
    logTails: (lines = 15) =>
      everyone()
        .map((p) => `--- ${p.name} (pid ${p.pid})\n${p.logTail(lines)}`)
        .join('\n'),
    async stop() {
      await stopAll();
      if (process.env.KEEP_RELIABILITY_LOGS) console.log(`[cluster] logs kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `node apps/cli/src/main.ts ...args` with the cluster's environment; rejects on a non-zero exit. */
export function runCli(env: Record<string, string>, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['apps/cli/src/main.ts', ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`cli ${args[0]} ${args[1]} exited ${code}: ${stderr.trim()}`));
      else {
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`cli ${args[0]} ${args[1]} printed no JSON: ${stdout.slice(0, 200)}`));
        }
      }
    });
  });
}
