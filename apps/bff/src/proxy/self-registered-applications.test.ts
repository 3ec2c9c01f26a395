// Issue 32: the portal's Revoke access for an application known by its client ID metadata
// document, whose client id is that document's https URL. The proxy accepts such an id on that
// one route only and sends it upstream as one percent-encoded path segment (BF-PX-01 holds).
import { describe, expect, it } from 'vitest';
import { usePortalSystem, useSignedInBrowser } from '#test/support/portal-system.ts';
import { insertSelfRegisteredClient } from '../../../auth/src/authorization/consent/self-registered.fixture.ts';
import { issueThirdPartyTokens } from '../../../auth/src/account/account.fixture.ts';

const system = usePortalSystem();
const { user, browser } = useSignedInBrowser(system, 'Katherine Johnson');

async function apiStatus(token: string): Promise<number> {
  const response = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('CM-16 the portal lists and revokes an application known by its metadata document', () => {
  it('CM-16 GET /bff/api/applications names its host; POST …/<encoded URL>/revoke reaches the one upstream route and its token stops working', async () => {
    const client = await insertSelfRegisteredClient(system.db, system.clock, {
      registration: 'metadata_document',
      id: 'https://agents.example/bff/client.json',
      redirectUris: ['https://agents.example/cb'],
    });
    const pair = await issueThirdPartyTokens(system, client, user);
    expect(await apiStatus(pair.accessToken)).toBe(200);

    const listed = await browser.request('/bff/api/applications');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ client_id: client.id, registration: 'metadata_document', host: 'agents.example' }),
    ]);

    const encoded = encodeURIComponent(client.id);
    const before = system.upstreamCalls.length;
    const revoked = await browser.request(`/bff/api/applications/${encoded}/revoke`, { method: 'POST' });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ client_id: client.id, active_grants: 0 });
    expect(system.upstreamCalls.slice(before).map((call) => call.url)).toEqual([
      `${system.authUrl}/account/applications/${encoded}/revoke`,
    ]);
    expect(await apiStatus(pair.accessToken)).toBe(401);
    expect((await browser.request('/bff/api/applications')).body).toEqual([]);
  });

  it.each([
    // Only on the applications route: a client of the user's own is never a URL.
    '/bff/api/clients/https%3A%2F%2Fagents.example%2Fc.json/revoke',
    '/bff/api/tokens/https%3A%2F%2Fagents.example%2Fc.json/revoke',
    // Only https, printable, bounded.
    '/bff/api/applications/http%3A%2F%2Fagents.example%2Fc.json/revoke',
    '/bff/api/applications/https%3A%2F%2Fa%20b.example%2Fc.json/revoke',
    `/bff/api/applications/https%3A%2F%2Fa.example%2F${'x'.repeat(1100)}/revoke`,
    '/bff/api/applications/..%2F..%2Fme/revoke',
  ])('CM-16 POST %s: 404, nothing sent upstream', async (path) => {
    const before = system.upstreamCalls.length;
    const answer = await browser.request(path, { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'not_found' });
    expect(system.upstreamCalls.slice(before)).toEqual([]);
  });
});
