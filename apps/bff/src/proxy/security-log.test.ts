// Issue 36 through the portal's BFF: the security log page's data (AU-05) and the address and
// browser an account call is logged with (AU-04).
import { describe, expect, it } from 'vitest';
import { usePortalSystem, useSignedInBrowser } from '#test/support/portal-system.ts';

const system = usePortalSystem({ TRUST_PROXY: 'loopback' });
const { user, browser } = useSignedInBrowser(system, 'Mary Jackson');

async function eventsOf(userId: string, type: string) {
  return system.db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .execute();
}

describe('AU-04 AU-05 the security log through the portal', () => {
  it('AU-01 AU-04 a token made through the portal is logged with the browser’s address (the BFF’s TRUST_PROXY) and User-Agent; an address the browser claims itself is not believed', async () => {
    const created = await browser.request('/bff/api/tokens', {
      method: 'POST',
      json: { name: 'logged from a browser' },
      headers: {
        'user-agent': 'Mozilla/5.0 (AU-04 test) Firefox/140.0',
        'x-forwarded-for': '203.0.113.9',
        'latchkey-client-address': '6.6.6.6',
      },
    });
    expect(created.status, created.text).toBe(201);
    const [event] = (await eventsOf(user.id, 'token.created')).filter((row) => row.target_id === created.body.token.id);
    expect(event).toMatchObject({
      actor: 'user',
      actor_id: user.id,
      ip: '203.0.113.9',
      user_agent: 'Mozilla/5.0 (AU-04 test) Firefox/140.0',
      target_type: 'access_token',
      outcome: 'success',
    });
  });

  it('AU-05 GET /bff/api/security-log: the user’s events newest first, a page at a time, filtered by type, through the one upstream route', async () => {
    for (const name of ['first', 'second', 'third']) {
      system.clock.advance(1000);
      const made = await browser.request('/bff/api/tokens', { method: 'POST', json: { name } });
      expect(made.status).toBe(201);
    }
    const all = await browser.request('/bff/api/security-log');
    expect(all.status, all.text).toBe(200);
    expect(all.body.events.length).toBeGreaterThanOrEqual(3);
    const times = all.body.events.map((event: { created_at: string }) => event.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.body.events.every((event: { user_id: string }) => event.user_id === user.id)).toBe(true);

    const before = system.upstreamCalls.length;
    const first = await browser.request('/bff/api/security-log?type=token.created&limit=2&evil=1');
    expect(first.status, first.text).toBe(200);
    expect(first.body.events).toHaveLength(2);
    expect(first.body.events.every((event: { type: string }) => event.type === 'token.created')).toBe(true);
    expect(first.body.next).toBe(first.body.events[1].id);
    expect(system.upstreamCalls.slice(before).map((call) => call.url)).toEqual([
      `${system.authUrl}/account/security-log`,
    ]);
    const second = await browser.request(
      `/bff/api/security-log?type=token.created&limit=2&before=${encodeURIComponent(first.body.next)}`,
    );
    expect(second.status).toBe(200);
    const ids = [...first.body.events, ...second.body.events].map((event: { id: string }) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.body.events.length).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['type=nonsense', 'type'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['before=../../me', 'before'],
  ])('AU-05 GET /bff/api/security-log?%s is 400 naming %s', async (query, field) => {
    const answer = await browser.request(`/bff/api/security-log?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation_failed', field });
  });
});
