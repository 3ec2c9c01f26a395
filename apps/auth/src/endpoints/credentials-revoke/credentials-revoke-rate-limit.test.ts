// LK-05: reports are counted per address, like the other unauthenticated endpoints' limits.
import { expect, it } from 'vitest';
import { makePat, makeUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { accessTokenWorks } from '../oauth-json/oauth-endpoint.fixture.ts';

const system = useSystem({ RATE_LIMIT_CREDENTIALS_REVOKE_PER_MINUTE: '2' });

function report(credentials: string[]): Promise<Response> {
  return fetch(`${system.authUrl}/credentials/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credentials }),
  });
}

it('LK-05 an address may report RATE_LIMIT_CREDENTIALS_REVOKE_PER_MINUTE times a minute; the next is 429 with Retry-After in the JSON error shape, and revokes nothing', async () => {
  const user = await makeUser(system);
  const pat = await makePat(system, user);
  expect(system.config.rateLimit.credentialsRevokePerMinute).toBe(2);
  expect((await report(['lkp_one'])).status).toBe(202);
  expect((await report(['lkp_two'])).status).toBe(202);
  const refused = await report([pat]);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await refused.json()).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
  expect(await accessTokenWorks(system, pat)).toBe(true);
});
