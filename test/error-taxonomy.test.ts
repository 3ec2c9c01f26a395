// Issue 16 part 1: one error taxonomy. On every surface a bug (a TypeError thrown below a real
// service call) is a 500 in the surface's own shape, with no stack trace in the answer and the
// stack in an error-level log line; an outage (a refused database connection) is a 503 with
// Retry-After. Before, the token, revocation and account endpoints and the API answered a bug
// with 503, so clients retried it as an outage and alerting on 500s saw nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken, callAccount } from '../apps/auth/src/account/account.fixture.ts';
import { exchangeCode, postForm, revokeUrl } from '../apps/auth/src/endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { postGraphql } from '../apps/api/src/testing/post-graphql.ts';
import { CookieJar, fetchPage, submitSignIn } from './support/browserless-flow.ts';
import { aBug, anOutage } from './support/faults.ts';
import { makeClient, makeCode, makePat, makeUser } from './support/fixtures.ts';
import { PortalBrowser, startPortalSystem, type PortalSystem } from './support/portal-system.ts';

let system: PortalSystem;
let user: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  system = await startPortalSystem();
  user = await makeUser(system, 'Tess Taxonomy');
});
afterEach(() => {
  system.faults.clear();
});
afterAll(async () => {
  await system?.close();
});

/** The error-level log lines written since `from`, for the bug's stack. */
function errorLogsSince(from: number): string[] {
  return system.logs.slice(from).filter((line) => line.includes('"level":50'));
}

function expectBugLogged(from: number): void {
  const logged = errorLogsSince(from).join('\n');
  expect(logged).toContain('TypeError');
  expect(logged).toMatch(/"stack":"TypeError: Cannot read properties of undefined[^"]*\\n\s+at /);
}

function expectNoStack(text: string): void {
  expect(text).not.toMatch(/TypeError|ECONNREFUSED|\bat .*\.ts:\d+/);
}

describe('issue 16: a bug is a 500, an outage a 503, on every surface', () => {
  it('OAuth token and revocation endpoints: 500 server_error for a bug, 503 temporarily_unavailable for an outage', async () => {
    const app = await makeClient(system, user);
    for (const [fault, status, error] of [
      [aBug, 500, 'server_error'],
      [anOutage, 503, 'temporarily_unavailable'],
    ] as const) {
      const code = await makeCode(system, app.client, user);
      const from = system.logs.length;
      system.faults.failQueriesOn('clients', fault);
      const answers = [
        await exchangeCode(system, app, code),
        await postForm(revokeUrl(system), { token: 'lkr_x', client_id: app.client.id, client_secret: app.clientSecret }),
      ];
      system.faults.clear();
      for (const answer of answers) {
        expect(answer.status).toBe(status);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(answer.headers.get('retry-after')).toBe(status === 503 ? '5' : null);
        const text = await answer.text();
        expect(JSON.parse(text)).toMatchObject({ error });
        expectNoStack(text);
      }
      if (status === 500) expectBugLogged(from);
    }
  });

  it('account endpoints: 500 server_error for a bug, 503 temporarily_unavailable for an outage', async () => {
    const token = await issuePortalToken(system, user);
    for (const [fault, status, error] of [
      [aBug, 500, 'server_error'],
      [anOutage, 503, 'temporarily_unavailable'],
    ] as const) {
      const from = system.logs.length;
      system.faults.failQueriesOn('clients', fault);
      const answer = await callAccount(system, 'GET', '/account/clients', { token });
      system.faults.clear();
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ error });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('retry-after')).toBe(status === 503 ? '5' : null);
      expectNoStack(answer.text);
      if (status === 500) expectBugLogged(from);
    }
  });

  it('GraphQL API: 500 INTERNAL_SERVER_ERROR for a bug in the token check, 503 for an outage (never 401)', async () => {
    for (const [fault, status, code] of [
      [aBug, 500, 'INTERNAL_SERVER_ERROR'],
      [anOutage, 503, 'SERVICE_UNAVAILABLE'],
    ] as const) {
      const token = await makePat(system, user);
      const from = system.logs.length;
      // The token lookup is precompiled once (tokens.repository.ts): only a failing result reaches it.
      system.faults.failEveryQuery(fault);
      const answer = await postGraphql(system.apiUrl, { token });
      system.faults.clear();
      expect(answer.status).toBe(status);
      expect(answer.json).toMatchObject({ errors: [{ extensions: { code } }] });
      expect(answer.headers.get('retry-after')).toBe(status === 503 ? '5' : null);
      expectNoStack(answer.text);
      if (status === 500) expectBugLogged(from);
      // The token itself was fine all along.
      expect((await postGraphql(system.apiUrl, { token })).status).toBe(200);
    }
  });

  it('sign-in pages: a 500 page for a bug, a 503 page with Retry-After for an outage', async () => {
    for (const [fault, status] of [
      [aBug, 500],
      [anOutage, 503],
    ] as const) {
      const jar = new CookieJar();
      const page = await fetchPage(system, jar, '/signin');
      const from = system.logs.length;
      system.faults.failQueriesOn('users', fault);
      const answer = await submitSignIn(system, jar, page, user);
      system.faults.clear();
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('retry-after')).toBe(status === 503 ? '5' : null);
      expectNoStack(answer.html);
      if (status === 500) expectBugLogged(from);
    }
  });

  it('portal (BFF): 500 server_error for a bug reading its session, 503 for an outage (never a 401)', async () => {
    const browser = new PortalBrowser(system);
    await browser.signIn(user);
    for (const [fault, status, error] of [
      [aBug, 500, 'server_error'],
      [anOutage, 503, 'temporarily_unavailable'],
    ] as const) {
      const from = system.logs.length;
      system.faults.failQueriesOn('sessions', fault);
      const answer = await browser.request('/bff/api/clients');
      system.faults.clear();
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.text)).toMatchObject({ error });
      expect(answer.headers.get('retry-after')).toBe(status === 503 ? '5' : null);
      expectNoStack(answer.text);
      if (status === 500) expectBugLogged(from);
    }
    expect((await browser.request('/bff/api/clients')).status).toBe(200);
  });
});
