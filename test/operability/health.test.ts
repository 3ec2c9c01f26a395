// GET /healthz and GET /readyz on the three servers (issue 4): /healthz says the process
// answers, /readyz that the database (and Redis, when configured) answer too, within a short
// timeout; 503 with Retry-After otherwise, never a stack, a URL or an error message.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { createDatabase, databaseOptionsFor, migrateToLatest, sqlitePathFor } from '@latchkey/db';
import { countAllRows, makeUser } from '../support/fixtures.ts';
import { PortalBrowser, usePortalSystem } from '../support/portal-system.ts';
import { perFile } from '../support/per-file.ts';
import { testEngine } from '../support/test-database.ts';
import {
  captureLogs,
  SERVER_NAMES,
  startStandalone,
  useServersOnEmptyDatabase,
  type ServerName,
} from './support/standalone-servers.ts';

const system = usePortalSystem();
const { urls } = perFile(async () => ({
  urls: { auth: system.authUrl, api: system.apiUrl, bff: system.portalUrl } as Record<ServerName, string>,
}));

function countSessions(): Promise<number> {
  return countAllRows(system, 'sessions');
}

/** Nothing in a probe's answer may help an attacker or leak configuration. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat .*\.ts|postgres|sqlite|redis:\/\/|ECONN|no such table|relation|password|Error/i);
}

describe('GET /healthz and /readyz on every server', () => {
  it.each(SERVER_NAMES)('%s: /healthz is 200 {"status":"ok"}, not cacheable, no cookie', async (name) => {
    const response = await fetch(`${urls[name]}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it.each(SERVER_NAMES)('%s: /readyz is 200 ready with the database checked and Redis not configured', async (name) => {
    const response = await fetch(`${urls[name]}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'not configured' } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it.each(SERVER_NAMES)('%s: HEAD answers without a body, a query string is ignored, POST is 405', async (name) => {
    const head = await fetch(`${urls[name]}/readyz?probe=1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${urls[name]}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('probes neither create nor read a session, and no rate limit counts them', async () => {
    const before = await countSessions();
    // More probes than any per-minute limit of the servers allows requests.
    const answers = await Promise.all(
      SERVER_NAMES.flatMap((name) =>
        Array.from({ length: 40 }, (_, i) => fetch(`${urls[name]}/${i % 2 === 0 ? 'readyz' : 'healthz'}`)),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers.every((a) => a.headers.get('set-cookie') === null)).toBe(true);
    expect(await countSessions()).toBe(before);
  });
});

describe('/readyz when the database is broken: 503 with Retry-After, /healthz still 200', () => {
  const logs = captureLogs();
  const servers = useServersOnEmptyDatabase(system, logs);

  it.each(SERVER_NAMES)('%s: /readyz 503 names the database, /healthz 200', async (name) => {
    const ready = await fetch(`${servers[name]!.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(ready.headers.get('cache-control')).toBe('no-store');
    const text = await ready.text();
    expect(JSON.parse(text)).toEqual({
      status: 'unavailable',
      checks: { database: 'unavailable', redis: 'not configured' },
    });
    expectNoInternals(text);
    const alive = await fetch(`${servers[name]!.url}/healthz`);
    expect(alive.status).toBe(200);
  });

  it('probes never load a session: with a signed session cookie they answer where a session read fails', async () => {
    const browser = new PortalBrowser(system);
    const user = await makeUser(system);
    expect((await browser.signIn(user)).status).toBe(302);
    const portalCookie = `lk_portal_sid=${browser.sessionCookie()!}`;
    const authCookie = `lk_auth_sid=${browser.authJar.get('lk_auth_sid')!}`;
    // The control: the same cookie on a route that loads the session hits the broken store.
    const session = await fetch(`${servers.bff!.url}/bff/session`, { headers: { cookie: portalCookie } });
    // A database without the schema: 500 (issue 16: not an outage), while /readyz reports it.
    expect(session.status).toBe(500);
    const home = await fetch(`${servers.auth!.url}/`, { headers: { cookie: authCookie, accept: 'text/html' } });
    expect(home.status).toBeGreaterThanOrEqual(500);

    for (const [name, cookie] of [
      ['bff', portalCookie],
      ['auth', authCookie],
    ] as const) {
      const alive = await fetch(`${servers[name]!.url}/healthz`, { headers: { cookie } });
      expect(alive.status).toBe(200);
      expect(alive.headers.get('set-cookie')).toBeNull();
      const ready = await fetch(`${servers[name]!.url}/readyz`, { headers: { cookie } });
      expect(await ready.json()).toMatchObject({ checks: { database: 'unavailable' } });
    }
  });

  it('the failing check is logged once for the operator, not once per probe', async () => {
    for (let i = 0; i < 5; i += 1) await fetch(`${servers.api!.url}/readyz`);
    const failures = logs.records().filter((r) => r.msg === 'readiness check failed');
    // One per server's app (three apps share this logger), however many probes.
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures.length).toBeLessThanOrEqual(3);
    expect(failures[0]).toMatchObject({ check: 'database', outcome: 'unavailable' });
  });

  it('a destroyed database handle: 503, and the process stays alive', async () => {
    const gone = createDatabase(databaseOptionsFor(system.config));
    // Used, then destroyed (a Kysely destroyed before its first query would simply reconnect).
    await gone.selectFrom('locks').select('key').execute();
    await gone.destroy();
    const server = await startStandalone('auth', {
      config: system.config,
      db: gone,
      clock: system.clock,
      logger: logs.logger,
    });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { database: 'unavailable' } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.runIf(testEngine() === 'sqlite')('a SQLite file overwritten with garbage: ready before, 503 after', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'latchkey-ready-file-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: folder, LOG_LEVEL: 'silent' });
    const db = createDatabase({ sqlitePath: sqlitePathFor(folder) });
    await migrateToLatest(db);
    const server = await startStandalone('api', { config, db, clock: system.clock, logger: logs.logger });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // In place, the file and its WAL and index alike (the open connection keeps its file
      // handles, and in WAL mode trusts its cache until the index changes).
      const file = sqlitePathFor(folder);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        if (existsSync(path)) writeFileSync(path, Buffer.alloc(statSync(path).size, 0x41), { flag: 'r+' });
      }
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { database: 'unavailable' } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
