import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeViaPages, CookieJar, fetchPage, openAuthorize, submitSignIn } from '#test/support/browserless-flow.ts';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { captureLogger } from '#test/support/loopback.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import {
  countCodes,
  expectErrorPage,
  expectErrorRedirect,
  REDIRECT_URI,
} from '../authorization/authorize.fixture.ts';
import { isDependencyFailure } from '@latchkey/http';
import { errorHandler, notFoundHandler } from './error-handler.ts';
import { PageError } from './page-error.ts';
import { securityHeaders } from './security-headers.ts';

/** SQLite's own refusal to write: the database file has become read-only under us. */
async function setReadOnly(system: TestSystem, on: boolean): Promise<void> {
  await system.db.executeQuery({
    sql: `PRAGMA query_only = ${on ? 'ON' : 'OFF'}`,
    parameters: [],
    query: { kind: 'RawNode' },
  } as never);
}

describe('D-10 database failure on the pages: 503 with Retry-After, never a 4xx', () => {
  let system: TestSystem;
  let user: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    system = await startSystem();
    user = await makeUser(system);
  });
  afterAll(async () => {
    await setReadOnly(system, false);
    await system?.close();
  });

  it('signing in cannot store its session: 503 page with Retry-After, no session cookie (the page itself stores nothing)', async () => {
    const jar = new CookieJar();
    await setReadOnly(system, true);
    try {
      const page = await fetchPage(system, jar, '/signin');
      expect(page.status).toBe(200);
      const answer = await submitSignIn(system, jar, page, user);
      expectErrorPage(answer, 503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.headers.getSetCookie().filter((c) => c.startsWith('lk_auth_sid='))).toEqual([]);
      expect(answer.html).toContain('temporarily unavailable');
      expect(system.logs.some((l) => l.includes('"level":50') && l.includes('readonly'))).toBe(true);
    } finally {
      await setReadOnly(system, false);
    }
  });

  it('AZ-22 after the redirect URI is verified, a failing code write is redirected as temporarily_unavailable with state', async () => {
    const { client } = await makeClient(system, user, { redirectUri: REDIRECT_URI });
    const { jar } = await authorizeViaPages(system, { user, clientId: client.id, redirectUri: REDIRECT_URI });
    const before = await countCodes(system);
    await setReadOnly(system, true);
    try {
      const page = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'az22' });
      expectErrorRedirect(system, page, REDIRECT_URI, 'temporarily_unavailable', 'az22');
    } finally {
      await setReadOnly(system, false);
    }
    expect(await countCodes(system)).toBe(before);
  });

  it('recovers as soon as the database does', async () => {
    const page = await fetchPage(system, new CookieJar(), '/signin');
    expect(page.status).toBe(200);
  });
});

describe('http/error-handler.ts mapping (a bare app with routes that fail on purpose)', () => {
  let server: Server;
  let base: string;
  const logs: string[] = [];

  beforeAll(async () => {
    const logger = captureLogger(logs);
    const app = express();
    app.use(securityHeaders({ https: false }));
    app.get('/page-error', () => {
      throw new PageError(409, 'Conflict here', 'Shown to the user.');
    });
    app.get('/bug', () => {
      throw new Error('secret internal detail at /srv/app.ts:12');
    });
    app.get('/oauth/token', () => {
      throw new Error('internal');
    });
    app.get('/busy', () => {
      throw Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
    });
    app.get('/partial', (_req, res) => {
      res.status(200).write('partial body');
      throw new Error('after the response started');
    });
    app.use(notFoundHandler);
    app.use(errorHandler(logger));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a PageError renders its status, title and detail as HTML', async () => {
    const response = await fetch(`${base}/page-error`);
    expect(response.status).toBe(409);
    const body = await response.text();
    expect(body).toContain('Conflict here');
    expect(body).toContain('Shown to the user.');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('an unexpected error: generic 500 page, no message or stack in the body; logged at error with the stack', async () => {
    const response = await fetch(`${base}/bug`);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toContain('Something went wrong');
    expect(body).not.toContain('secret internal detail');
    expect(body).not.toMatch(/\.ts:\d+/);
    const line = logs.find((l) => l.includes('secret internal detail'));
    expect(line).toContain('"level":50');
    expect(line).toContain('"stack"');
  });

  it('machine paths get JSON: server_error with no detail', async () => {
    const response = await fetch(`${base}/oauth/token`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'server_error',
      error_description: 'An unexpected error occurred on our side. Please try again.',
    });
  });

  it('a busy database: 503 with Retry-After', async () => {
    const response = await fetch(`${base}/busy`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as { error: string }).error).toBe('temporarily_unavailable');
  });

  it('a response already under way is not clobbered by an error page', async () => {
    const outcome = await fetch(`${base}/partial`).then(
      async (r) => ({ status: r.status, body: await r.text().catch(() => 'aborted') }),
      () => ({ status: 0, body: 'aborted' }),
    );
    expect(outcome.body).not.toContain('Something went wrong');
    expect([0, 200]).toContain(outcome.status);
  });

  it('isDependencyFailure recognises SQLite busy/readonly/io and network errors, also as a cause; not bugs', () => {
    const sqlite = (errcode: number) => Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode });
    expect(isDependencyFailure(sqlite(5))).toBe(true);
    expect(isDependencyFailure(sqlite(8))).toBe(true);
    expect(isDependencyFailure(sqlite(10 | (3 << 8)))).toBe(true);
    expect(
      isDependencyFailure(
        new Error('wrapped', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }),
      ),
    ).toBe(true);
    expect(isDependencyFailure(sqlite(1))).toBe(false);
    expect(isDependencyFailure(sqlite(19))).toBe(false);
    expect(isDependencyFailure(new TypeError('bug'))).toBe(false);
    expect(isDependencyFailure('string')).toBe(false);
  });
});
