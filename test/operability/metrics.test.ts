// OB-01..OB-08: the Prometheus metrics. The servers in process share one registry, as `npm start`
// runs them, served by serveMetrics as runServerProcess does; real traffic (tokens at /graphql and
// /account, sign-ins, token grants, a refusal by each kind of limit) is then read back from
// GET /metrics over HTTP. A server process started as production starts it shows that the
// listener is on 127.0.0.1 only, apart from the public port.
import { createServer, type RequestListener } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '@latchkey/config';
import {
  createClient,
  createPersonalAccessToken,
  createUser,
  issueAuthorizationCode,
  ManualClock,
  provisionPortalClient,
  revokeAccessToken,
  type Client,
} from '@latchkey/core';
import { migrateToLatest, type Db } from '@latchkey/db';
import { createObservability, type Observability } from '@latchkey/observability';
import { serveMetrics, type RunningServer } from '@latchkey/process';
import { createApiApp, type ApiApp } from '../../apps/api/src/app.ts';
import { createAuthApp } from '../../apps/auth/src/app.ts';
import { observeProcess } from '../../packages/process/src/process-metrics.ts';
import { CookieJar, signIn } from '../support/browserless-flow.ts';
import { anOutage, FaultInjector } from '../support/faults.ts';
import { captureLogger, closeServer, listenOnLoopback, reservedPorts } from '../support/loopback.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../support/test-database.ts';
import { spawnServer, type ServerProcess } from './support/server-process.ts';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** One sample of an exposition: `name{a="x",b="y"} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = value!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` with these labels (others ignored); undefined if none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

interface Scraped {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  text: string;
}

async function scrape(url: string): Promise<Scraped> {
  const response = await fetch(url);
  const { headers } = response;
  return {
    status: response.status,
    contentType: headers.get('content-type'),
    cacheControl: headers.get('cache-control'),
    text: await response.text(),
  };
}

interface InProcess {
  config: Config;
  db: Db;
  database: TestDatabase;
  dataDir: string;
  clock: ManualClock;
  faults: FaultInjector;
  observability: Observability;
  authUrl: string;
  apiUrl: string;
  metricsUrl: string;
  close(): Promise<void>;
}

async function startInProcess(): Promise<InProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-metrics-'));
  const database = await createTestDatabase(dataDir);
  const authServer = createServer();
  const apiServer = createServer();
  const authPort = await listenOnLoopback(authServer);
  const apiPort = await listenOnLoopback(apiServer);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    AUTH_PORT: String(authPort),
    AUTH_URL: `http://127.0.0.1:${authPort}`,
    API_PORT: String(apiPort),
    API_URL: `http://127.0.0.1:${apiPort}`,
    PORTAL_URL: 'http://127.0.0.1:3999',
    // Low, so one refusal of each kind takes few requests.
    RATE_LIMIT_TOKEN_PER_MINUTE: '2',
    RATE_LIMIT_LOGIN_PER_MINUTE: '2',
    METRICS_PORT: '0',
    ...database.env,
  });
  const faults = new FaultInjector();
  const db = database.open().withPlugin(faults);
  await migrateToLatest(db);
  const clock = new ManualClock(Date.now());
  await provisionPortalClient(db, clock, config);
  const logger = captureLogger([]);
  // One registry for both servers, as `npm start` runs them in one process (runServerProcess).
  const observability = createObservability();
  observeProcess(observability.metrics, config, undefined);
  authServer.on('request', createAuthApp({ config, db, clock, logger, observability }));
  const api: ApiApp = createApiApp({ config, db, clock, logger, observability, lastUsedFlushMs: 3_600_000 });
  apiServer.on('request', api.handler as RequestListener);
  const metrics: RunningServer = await serveMetrics(
    observability.metrics,
    config.metrics.port!,
    config.metrics.host,
    logger,
  );
  return {
    config,
    db,
    database,
    dataDir,
    clock,
    faults,
    observability,
    authUrl: config.auth.url,
    apiUrl: config.api.url,
    metricsUrl: `http://${config.metrics.host}:${metrics.port}/metrics`,
    async close() {
      await metrics.close();
      await Promise.all([closeServer(authServer), closeServer(apiServer)]);
      await api.close();
      await db.destroy();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function graphql(system: InProcess, token: string): Promise<number> {
  const response = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function tokenRequest(
  system: InProcess,
  credentials: { id: string; secret: string },
  form: Record<string, string>,
): Promise<{ status: number; error: unknown }> {
  const response = await fetch(`${system.authUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as { error?: unknown };
  return { status: response.status, error: body.error };
}

describe('the metrics of the servers after real traffic', () => {
  let system: InProcess;
  /** Every value the test sent or was given that no label may ever carry. */
  const secrets: string[] = [];
  let samples: Sample[];
  let scraped: Scraped;
  let client: Client;

  beforeAll(async () => {
    system = await startInProcess();
    const { db, clock, config } = system;
    const password = 'pw-metrics-Correct-Horse-9';
    const user = await createUser(db, clock, { email: 'metrics-user@example.test', password, name: 'Ada Metrics' });
    const created = await createClient(db, clock, {
      ownerId: user.id,
      name: 'Metrics App',
      redirectUris: ['https://client.example/cb'],
      requirePkce: false,
    });
    client = created.client;
    const pat = await createPersonalAccessToken(db, clock, config.tokenTtlSeconds, { userId: user.id, name: 'good' });
    const shortLived = await createPersonalAccessToken(db, clock, 60, { userId: user.id, name: 'short' });
    const revoked = await createPersonalAccessToken(db, clock, config.tokenTtlSeconds, {
      userId: user.id,
      name: 'gone',
    });
    await revokeAccessToken(db, clock, revoked.summary.id);
    const badToken = 'lk_pat_this-is-no-token-of-ours-1234567890';
    const wrongPassword = 'pw-metrics-Wrong-Battery-7';
    secrets.push(
      pat.token,
      shortLived.token,
      revoked.token,
      badToken,
      user.email,
      user.id,
      password,
      wrongPassword,
      client.id,
      created.clientSecret,
      pat.summary.id,
    );
    const credentials = { id: client.id, secret: created.clientSecret };

    // API: a good token, a bad one, an expired one (below), one while the database is down.
    expect(await graphql(system, pat.token)).toBe(200);
    expect(await graphql(system, badToken)).toBe(401);
    expect(await graphql(system, revoked.token)).toBe(401);
    system.faults.failEveryQuery(anOutage);
    expect(await graphql(system, pat.token)).toBe(503);
    system.faults.clear();
    // The auth server's bearer check (/account/*): a valid token without the account scope.
    const account = await fetch(`${system.authUrl}/account/tokens/${pat.summary.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat.token}` },
    });
    expect(account.status).toBe(403);

    // Sign-ins: one right, two wrong, then the per-address limit (2 a minute) refuses.
    const signInAs = (pw: string) =>
      signIn({ authUrl: system.authUrl }, new CookieJar(), { email: user.email, password: pw });
    expect((await signInAs(password)).status).toBe(303);
    expect((await signInAs(wrongPassword)).status).toBe(422);
    expect((await signInAs(wrongPassword)).status).toBe(422);
    expect((await signInAs(password)).status).toBe(429);

    // Token grants: a code redeemed, the same code again, an unsupported grant, then wrong
    // secrets until the per-address limit of failed client authentications (2) refuses.
    const code = await issueAuthorizationCode(db, clock, {
      client,
      userId: user.id,
      redirectUri: 'https://client.example/cb',
      codeChallenge: null,
    });
    secrets.push(code);
    const redeem = { grant_type: 'authorization_code', code, redirect_uri: 'https://client.example/cb' };
    expect(await tokenRequest(system, credentials, redeem)).toMatchObject({ status: 200 });
    expect(await tokenRequest(system, credentials, redeem)).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await tokenRequest(system, credentials, { grant_type: 'password' })).toEqual({
      status: 400,
      error: 'unsupported_grant_type',
    });
    const wrong = { id: client.id, secret: 'not-the-secret-of-this-client' };
    secrets.push(wrong.secret);
    expect(await tokenRequest(system, wrong, redeem)).toEqual({ status: 401, error: 'invalid_client' });
    expect(await tokenRequest(system, wrong, redeem)).toEqual({ status: 401, error: 'invalid_client' });
    expect(await tokenRequest(system, wrong, redeem)).toEqual({ status: 429, error: 'slow_down' });

    // Last, as it moves the clock: the short-lived token has expired.
    clock.advance(61_000);
    expect(await graphql(system, shortLived.token)).toBe(401);

    scraped = await scrape(system.metricsUrl);
    samples = parseExposition(scraped.text);
  });

  afterAll(async () => {
    await system?.close();
  });

  it('OB-01 GET /metrics answers 200 in the Prometheus text format, with no-store', () => {
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toBe(PROMETHEUS_TEXT);
    expect(scraped.cacheControl).toBe('no-store');
    expect(scraped.text).toContain('# TYPE latchkey_http_request_duration_seconds histogram');
  });

  it('OB-01 requests are counted by server, method, route template and status, never by path', () => {
    const count = (labels: Record<string, string>) =>
      valueOf(samples, 'latchkey_http_request_duration_seconds_count', labels);
    expect(count({ server: 'api', method: 'POST', route: '/graphql', status: '200' })).toBe(1);
    expect(count({ server: 'api', method: 'POST', route: '/graphql', status: '401' })).toBe(3);
    expect(count({ server: 'api', method: 'POST', route: '/graphql', status: '503' })).toBe(1);
    expect(count({ server: 'auth', method: 'POST', route: '/oauth/token', status: '200' })).toBe(1);
    expect(count({ server: 'auth', method: 'POST', route: '/signin', status: '303' })).toBe(1);
    expect(count({ server: 'auth', method: 'GET', route: '/signin', status: '200' })).toBe(4);
    const routes = new Set(
      samples.filter((s) => s.name === 'latchkey_http_request_duration_seconds_count').map((s) => s.labels.route),
    );
    for (const route of routes) expect(route).toMatch(/^(?:unmatched|\/[a-z_/:.-]*)$/);
  });

  it('OB-01 an Express route answered by its error handler keeps its template', () => {
    const count = (labels: Record<string, string>) =>
      valueOf(samples, 'latchkey_http_request_duration_seconds_count', labels);
    expect(count({ server: 'auth', method: 'POST', route: '/oauth/token', status: '400' })).toBe(2);
    expect(count({ server: 'auth', method: 'POST', route: '/oauth/token', status: '401' })).toBe(2);
    expect(count({ server: 'auth', method: 'POST', route: '/account/tokens/:id/revoke', status: '403' })).toBe(1);
  });

  it('OB-02 token checks are counted by outcome, at the API and at the auth server', () => {
    const checks = (outcome: string) => valueOf(samples, 'latchkey_token_checks_total', { outcome });
    // ok: the API's good token and the /account check of the same token.
    expect(checks('ok')).toBe(2);
    expect(checks('invalid')).toBe(1);
    expect(checks('expired')).toBe(1);
    expect(checks('unavailable')).toBe(1);
    expect(checks('revoked')).toBe(1);
  });

  it('OB-03 token grants are counted by grant type and outcome, unknown grant types as other', () => {
    const grants = (grant_type: string, outcome: string) =>
      valueOf(samples, 'latchkey_token_grants_total', { grant_type, outcome });
    expect(grants('authorization_code', 'ok')).toBe(1);
    expect(grants('authorization_code', 'invalid_grant')).toBe(1);
    expect(grants('authorization_code', 'invalid_client')).toBe(2);
    // Refused per address before the form was read: its grant type is not known.
    expect(grants('other', 'slow_down')).toBe(1);
    expect(grants('other', 'unsupported_grant_type')).toBe(1);
    expect(grants('refresh_token', 'ok')).toBe(0);
    expect(samples.some((s) => s.name === 'latchkey_token_grants_total' && s.labels.grant_type === 'password')).toBe(
      false,
    );
  });

  it('OB-04 sign-ins are counted by outcome, a refusal by a limit as rate_limited', () => {
    const signIns = (outcome: string) => valueOf(samples, 'latchkey_sign_ins_total', { outcome });
    expect(signIns('ok')).toBe(1);
    expect(signIns('invalid_credentials')).toBe(2);
    expect(signIns('rate_limited')).toBe(1);
    expect(signIns('unavailable')).toBe(0);
  });

  it('OB-05 rate-limit refusals are counted by the limit’s name, every limit exported from the start', () => {
    const refused = (limit: string) => valueOf(samples, 'latchkey_rate_limited_total', { limit });
    expect(refused('signin-ip')).toBe(1);
    expect(refused('client-auth-address')).toBe(1);
    const unused = [
      'signin-account',
      'client-auth-client',
      'signup-ip',
      'signup-existing-ip',
      'device-code-ip',
      'account-create',
      'metadata-document-address',
    ];
    for (const limit of unused) expect(refused(limit)).toBe(0);
    // Reaching the device-cookie limit refuses nothing: it is no refusal.
    expect(refused('signin-device')).toBeUndefined();
  });

  it('OB-06 process metrics, event-loop lag, and the database pool on PostgreSQL only', () => {
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    const inUse = valueOf(samples, 'latchkey_db_pool_connections', { state: 'in_use' });
    const idle = valueOf(samples, 'latchkey_db_pool_connections', { state: 'idle' });
    if (system.database.engine === 'postgres') {
      expect(inUse! + idle!).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'latchkey_db_pool_waiting')).toBe(0);
    } else {
      expect(inUse).toBeUndefined();
      expect(valueOf(samples, 'latchkey_db_pool_waiting')).toBeUndefined();
    }
    // No REDIS_URL: no Redis gauge.
    expect(valueOf(samples, 'latchkey_redis_up')).toBeUndefined();
  });

  it('OB-07 no label value carries a token, a secret, an email, a code or an id of the traffic', () => {
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(scraped.text).not.toContain(secret);
    const values = samples.flatMap((s) => Object.values(s.labels));
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_:./+-]*$/);
    for (const value of values) expect(value).not.toContain('@');
  });

  it('OB-08 /metrics is not served on the public ports of the auth server and the API', async () => {
    for (const url of [`${system.authUrl}/metrics`, `${system.apiUrl}/metrics`]) {
      const response = await fetch(url);
      await response.arrayBuffer();
      expect(response.status).toBe(404);
    }
  });
});

// Once, on SQLite: the listener is the same on either engine (the in-process tests cover both).
describe.skipIf(testEngine() === 'postgres')('a server process with METRICS_PORT', () => {
  const servers: ServerProcess[] = [];
  const dataDirs: string[] = [];

  afterAll(() => {
    for (const server of servers) server.kill();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  function start(name: 'api' | 'bff', env: Record<string, string>): ServerProcess {
    const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-metrics-process-'));
    dataDirs.push(dataDir);
    const server = spawnServer(name, { NODE_ENV: 'test', DATA_DIR: dataDir, ...env });
    servers.push(server);
    return server;
  }

  it('OB-08 serves /metrics on 127.0.0.1 only, apart from its public port, which answers 404 there', async () => {
    const [apiPort, metricsPort] = await reservedPorts(2);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const server = start('api', { API_PORT: String(apiPort), API_URL: apiUrl, METRICS_PORT: String(metricsPort) });
    const listening = await server.waitForLog('metrics listening', 20_000);
    expect(listening).toMatchObject({ host: '127.0.0.1', port: metricsPort });
    await server.waitHealthy(apiUrl);

    const bad = await fetch(`${apiUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: 'Bearer lk_pat_no-such-token-in-this-process-000', 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    await bad.arrayBuffer();
    expect(bad.status).toBe(401);

    const scraped = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toBe(PROMETHEUS_TEXT);
    const samples = parseExposition(scraped.text);
    expect(valueOf(samples, 'latchkey_token_checks_total', { outcome: 'invalid' })).toBe(1);
    expect(
      valueOf(samples, 'latchkey_http_request_duration_seconds_count', {
        server: 'api',
        method: 'POST',
        route: '/graphql',
        status: '401',
      }),
    ).toBe(1);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(scraped.text).not.toContain('no-such-token-in-this-process');

    // Not on the public port, and not on another loopback address (bound to 127.0.0.1 alone).
    const publicPort = await fetch(`${apiUrl}/metrics`);
    await publicPort.arrayBuffer();
    expect(publicPort.status).toBe(404);
    await expect(fetch(`http://127.0.0.2:${metricsPort}/metrics`)).rejects.toThrow();
    // Only GET /metrics there.
    expect((await scrape(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  });

  it('OB-01 the portal counts its /bff/graphql fast path under its route template; OB-08 /metrics is not served on its port', async () => {
    const [portalPort, metricsPort] = await reservedPorts(2);
    const portalUrl = `http://127.0.0.1:${portalPort}`;
    const server = start('bff', {
      PORTAL_PORT: String(portalPort),
      PORTAL_URL: portalUrl,
      METRICS_PORT: String(metricsPort),
    });
    await server.waitForLog('metrics listening', 20_000);
    await server.waitHealthy(portalUrl);
    // No CSRF header: refused by the fast path's first check.
    const refused = await fetch(`${portalUrl}/bff/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    await refused.arrayBuffer();
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const onPortal = await fetch(`${portalUrl}/metrics`, { headers: { accept: 'text/plain' } });
    await onPortal.arrayBuffer();
    expect(onPortal.status).toBe(404);

    const samples = parseExposition((await scrape(`http://127.0.0.1:${metricsPort}/metrics`)).text);
    expect(
      valueOf(samples, 'latchkey_http_request_duration_seconds_count', {
        server: 'bff',
        method: 'POST',
        route: '/bff/graphql',
        status: String(refused.status),
      }),
    ).toBe(1);
  });
});
