import { describe, expect, it } from 'vitest';
import { createPersonalAccessToken, revokeClient } from '@latchkey/core';
import { CORS_MAX_AGE_SECONDS } from '@latchkey/http';
import { anOutage } from '#test/support/faults.ts';
import { makeClient, makePat, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { bareChallenge, postGraphql, type GraphqlAnswer } from '../testing/post-graphql.ts';

// PC-07, PC-08, PC-09: CORS for browser apps at /graphql, over real HTTP. A query sent twice is
// answered first by graphql-http's route (the document is not cached yet), then by the fast path.

const SPA = 'https://spa.example';
const system = useSystem();
const { user } = useUsers(system, { user: 'Grace Hopper' });
const { tokens } = perFile(async () => {
  await makeClient(system, user, { redirectUris: [`${SPA}/callback`] });
  const { token: emailOnly } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
    userId: user.id,
    name: 'email only',
    scopes: ['email'],
  });
  return { tokens: { full: await makePat(system, user), emailOnly } };
});

function preflight(origin: string): Promise<Response> {
  return fetch(`${system.apiUrl}/graphql`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });
}

function corsHeaderNames(answer: { headers: Headers }): string[] {
  return [...answer.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

function expectVaryOrigin(answer: { headers: Headers }): void {
  expect(answer.headers.get('vary')?.split(/\s*,\s*/)).toContain('Origin');
}

/** PC-07: what an allowed origin's actual request gets, success or error. */
function expectAllowed(answer: GraphqlAnswer, label: string, origin = SPA): void {
  expect(answer.headers.get('access-control-allow-origin'), label).toBe(origin);
  expect(answer.headers.get('access-control-allow-credentials'), label).toBeNull();
  expect(answer.headers.get('access-control-expose-headers')?.split(','), label).toEqual(
    expect.arrayContaining(['WWW-Authenticate', 'Retry-After']),
  );
  expectVaryOrigin(answer);
}

describe('PC-07 CORS at /graphql from the origin of a registered redirect URL', () => {
  it("PC-07 the preflight: 204 with the exact origin, GET and POST, the GraphQL clients' headers, max-age, Vary: Origin, never credentials; no token asked", async () => {
    const response = await preflight(SPA);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,Accept');
    expect(response.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_SECONDS));
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('www-authenticate')).toBeNull();
    expectVaryOrigin(response);
  });

  it('PC-07 actual requests carry the origin whichever path answers: graphql-http, the fast path, GET', async () => {
    const headers = { origin: SPA };
    const query = `{ profile { name } } # cors ${Date.now()}`;
    for (const path of ['graphql-http', 'fast path']) {
      const answer = await postGraphql(system.apiUrl, { token: tokens.full, query, headers });
      expect(answer.status, path).toBe(200);
      expect(answer.json, path).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
      expectAllowed(answer, path);
    }
    const get = await postGraphql(system.apiUrl, {
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('{ profile { name } }')}`,
      token: tokens.full,
      headers: { ...headers, accept: 'application/graphql-response+json' },
    });
    expect(get.status).toBe(200);
    expectAllowed(get, 'GET');
  });

  it('PC-07 errors are readable too: 401 without a token or with a bad one, 403 insufficient_scope, each with WWW-Authenticate exposed', async () => {
    const headers = { origin: SPA };
    const none = await postGraphql(system.apiUrl, { headers });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(bareChallenge(system.apiUrl));
    expectAllowed(none, 'no token');

    const bad = await postGraphql(system.apiUrl, { token: 'lk_not_a_token', headers });
    expect(bad.status).toBe(401);
    expectAllowed(bad, 'bad token');

    const query = `{ profile { name } } # scope ${Date.now()}`;
    for (const path of ['graphql-http', 'fast path']) {
      const scope = await postGraphql(system.apiUrl, { token: tokens.emailOnly, query, headers });
      expect(scope.status, path).toBe(403);
      expect(scope.headers.get('www-authenticate'), path).toContain('insufficient_scope');
      expectAllowed(scope, path);
    }
  });

  it('PC-07 without Origin: no lookup, no Access-Control-* header, Vary: Origin; OPTIONS is the 401 it was', async () => {
    const answer = await postGraphql(system.apiUrl, { token: tokens.full });
    expect(answer.status).toBe(200);
    expect(corsHeaderNames(answer)).toEqual([]);
    expectVaryOrigin(answer);
    const options = await fetch(`${system.apiUrl}/graphql`, { method: 'OPTIONS' });
    expect(options.status).toBe(401);
    expect(corsHeaderNames(options)).toEqual([]);
  });
});

describe('PC-08 no CORS at /graphql for any other origin', () => {
  const OTHERS = [
    'https://evil.example',
    'https://spa.example.evil',
    'http://spa.example',
    'https://spa.example:8443',
    'null',
  ];

  it('PC-08 an unregistered or look-alike origin: a preflight answered 204 with no Access-Control-* header (no 401), actual requests without Access-Control-Allow-Origin', async () => {
    for (const origin of OTHERS) {
      const refused = await preflight(origin);
      expect(refused.status, origin).toBe(204);
      expect(corsHeaderNames(refused), origin).toEqual([]);
      expectVaryOrigin(refused);
      const answer = await postGraphql(system.apiUrl, { token: tokens.full, headers: { origin } });
      expect(answer.status, origin).toBe(200);
      expect(corsHeaderNames(answer), origin).toEqual([]);
      const unauthenticated = await postGraphql(system.apiUrl, { headers: { origin } });
      expect(unauthenticated.status, origin).toBe(401);
      expect(corsHeaderNames(unauthenticated), origin).toEqual([]);
    }
  });
});

describe('PC-09 a revoked client', () => {
  it('PC-09 its origins stop being allowed at /graphql at once', async () => {
    const gone = 'https://gone.example';
    const { client } = await makeClient(system, user, { redirectUris: [`${gone}/cb`] });
    expect((await preflight(gone)).headers.get('access-control-allow-origin')).toBe(gone);
    await revokeClient(system.db, system.clock, client.id);
    const refused = await preflight(gone);
    expect(refused.status).toBe(204);
    expect(corsHeaderNames(refused)).toEqual([]);
    const answer = await postGraphql(system.apiUrl, { token: tokens.full, headers: { origin: gone } });
    expect(answer.status).toBe(200);
    expect(corsHeaderNames(answer)).toEqual([]);
  });
});

describe('D-10 the origin lookup during an outage', () => {
  it('PC-07 a request with Origin is 503 with Retry-After, never a 401 or a refusal', async () => {
    system.faults.failQueriesOn('clients', anOutage);
    try {
      for (const answer of [
        await preflight(SPA),
        await fetch(`${system.apiUrl}/graphql`, { method: 'POST', headers: { origin: SPA } }),
      ]) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).not.toBeNull();
        expect(await answer.json()).toMatchObject({ errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
      }
    } finally {
      system.faults.clear();
    }
  });
});
