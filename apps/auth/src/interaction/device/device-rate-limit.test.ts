import { describe, expect, it } from 'vitest';
import { CookieJar, signIn } from '#test/support/browserless-flow.ts';
import { useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { expectPageSecurityHeaders } from '../../authorization/authorize.fixture.ts';
import { deviceRow, enterCode, makeDeviceClient, startDevice } from './device.fixture.ts';

// DV-16: wrong codes per address a minute, at the sign-in allowance (RATE_LIMIT_LOGIN_PER_MINUTE).
const LIMIT = 3;
const system = useSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback' });
const { owner } = useUsers(system, { owner: 'Olivia Owner' });

function from(ip: string) {
  return { headers: { 'x-forwarded-for': ip } };
}

describe('DV-16 wrong codes are rate limited per address', () => {
  it('DV-16 after the limit of wrong codes, the next attempt from that address is 429 with Retry-After, even a good code; other addresses are unaffected', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const jar = new CookieJar();
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await enterCode(system, jar, `BCDFGHJ${'KLM'[i]}`, from('203.0.113.7'))).status).toBe(422);
    }
    const limited = await enterCode(system, jar, userCode, from('203.0.113.7'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('ratelimit-policy')).toContain('"device-code-ip"');
    expect(limited.html).toContain('Too many attempts');
    expectPageSecurityHeaders(limited);
    // Refused before the code was looked at: nothing changed, and another address goes on.
    expect(await deviceRow(system, client.id)).toEqual({ status: 'pending', user_id: null });
    expect((await enterCode(system, new CookieJar(), userCode, from('203.0.113.8'))).status).toBe(303);
  });

  it('DV-16 good codes do not count: a user entering codes that exist is never limited', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const jar = new CookieJar();
    expect((await signIn(system, jar, owner)).status).toBe(303);
    for (let i = 0; i < LIMIT + 2; i += 1) {
      expect((await enterCode(system, jar, userCode, from('198.51.100.20'))).status).toBe(303);
    }
    expect((await enterCode(system, jar, 'BCDFGHJK', from('198.51.100.20'))).status).toBe(422);
  });
});
