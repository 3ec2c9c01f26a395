import { describe, expect, it } from 'vitest';
import { makePat } from '#test/support/fixtures.ts';
import { usePortalSystem, useSignedInBrowser, type PortalResponse } from '#test/support/portal-system.ts';

const system = usePortalSystem();
const { user, browser } = useSignedInBrowser(system, 'Frances Allen');

const QUERY = { query: '{ profile { name } }' };

function expectForbidden(answer: PortalResponse): void {
  expect(answer.status).toBe(403);
  expect(answer.body).toMatchObject({ error: 'forbidden' });
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('access-control-allow-origin')).toBeNull();
}

describe('CSRF defence on the BFF JSON API (DD-9, BBA §6.1)', () => {
  it('the same request with the header, Origin and Sec-Fetch-Site of the SPA goes through', async () => {
    const answer = await browser.request('/bff/graphql', { json: QUERY });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { profile: { name: 'Frances Allen' } } });
  });

  it('BF-CS-01 POST /bff/graphql with a valid session and no X-Latchkey-Portal header: 403, zero requests reach /graphql', async () => {
    const graphqlCalls = system.countUpstream('/graphql');
    const answer = await browser.request('/bff/graphql', { json: QUERY, headers: { 'x-latchkey-portal': undefined } });
    expectForbidden(answer);
    const wrongValue = await browser.request('/bff/graphql', { json: QUERY, headers: { 'x-latchkey-portal': 'yes' } });
    expectForbidden(wrongValue);
    expect(system.countUpstream('/graphql')).toBe(graphqlCalls);
    expect(system.upstreamCalls.filter((c) => c.url.endsWith('/graphql')).length).toBe(graphqlCalls);
  });

  it.each([
    ['Origin: https://evil.example', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['the authorization server as Origin', { origin: 'AUTH' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['Sec-Fetch-Site: none', { 'sec-fetch-site': 'none' }],
  ])('BF-CS-02 header present but %s: 403, no upstream call', async (_name, headers) => {
    const calls = system.upstreamCalls.length;
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, v === 'AUTH' ? system.authUrl : v]),
    ) as Record<string, string>;
    expectForbidden(await browser.request('/bff/graphql', { json: QUERY, headers: resolved }));
    expectForbidden(await browser.request('/bff/logout', { method: 'POST', headers: resolved }));
    expect(system.upstreamCalls.length).toBe(calls);
    expect((await browser.request('/bff/session')).status).toBe(200);
  });

  it('a proxied read from another site: 403, no upstream call', async () => {
    const calls = system.upstreamCalls.length;
    expectForbidden(await browser.request('/bff/api/clients', { headers: { 'sec-fetch-site': 'cross-site' } }));
    expectForbidden(await browser.request('/bff/api/me', { headers: { origin: 'https://evil.example' } }));
    expect(system.upstreamCalls.length).toBe(calls);
  });

  it('BF-CS-03 an OPTIONS preflight from https://evil.example gets no CORS grant', async () => {
    for (const path of ['/bff/graphql', '/bff/api/clients', '/bff/logout', '/bff/session']) {
      const answer = await browser.request(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-latchkey-portal, content-type',
          'sec-fetch-site': 'cross-site',
          'x-latchkey-portal': undefined,
        },
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      expect(answer.headers.get('access-control-allow-headers')).toBeNull();
    }
  });

  it('BF-CS-04 text/plain or a form POST with the cookie: 415 or 403, never forwarded', async () => {
    const calls = system.upstreamCalls.length;
    const textPlain = await browser.request('/bff/graphql', {
      body: JSON.stringify(QUERY),
      headers: { 'content-type': 'text/plain' },
    });
    expect(textPlain.status).toBe(415);
    expect(textPlain.body).toMatchObject({ error: 'unsupported_media_type' });
    // What a cross-site <form> can send: no custom header, no JSON.
    const form = await browser.request('/bff/api/clients', {
      body: 'name=x&redirect_uri=https://evil.example/cb',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-latchkey-portal': undefined,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    });
    expectForbidden(form);
    const formSameOrigin = await browser.request('/bff/api/clients', {
      body: 'name=x&redirect_uri=https://ok.example/cb',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(formSameOrigin.status).toBe(415);
    expect(system.upstreamCalls.length).toBe(calls);
  });

  it('BF-CS-05 create client / generate token / revoke token without the header: 403 and nothing changes', async () => {
    const pat = await makePat(system, user, 'keep me');
    const token = await system.db
      .selectFrom('access_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'pat')
      .executeTakeFirstOrThrow();
    const clientsBefore = await system.db.selectFrom('clients').select('id').where('owner_id', '=', user.id).execute();
    const tokensBefore = await system.db
      .selectFrom('access_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    const noHeader = { 'x-latchkey-portal': undefined };

    expectForbidden(
      await browser.request('/bff/api/clients', {
        json: { name: 'Evil', redirect_uri: 'https://evil.example/cb' },
        headers: noHeader,
      }),
    );
    expectForbidden(await browser.request('/bff/api/tokens', { json: { name: 'evil' }, headers: noHeader }));
    expectForbidden(await browser.request(`/bff/api/tokens/${token.id}/revoke`, { method: 'POST', headers: noHeader }));

    expect(await system.db.selectFrom('clients').select('id').where('owner_id', '=', user.id).execute()).toEqual(
      clientsBefore,
    );
    expect(await system.db.selectFrom('access_tokens').select('id').where('user_id', '=', user.id).execute()).toEqual(
      tokensBefore,
    );
    const stillLive = await fetch(`${system.apiUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat}`, 'content-type': 'application/json' },
      body: JSON.stringify(QUERY),
    });
    expect(stillLive.status).toBe(200);
  });
});
