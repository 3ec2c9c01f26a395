// DR-14: registrations are limited per client address (RATE_LIMIT_REGISTER_PER_HOUR).
import { describe, expect, it } from 'vitest';
import { useSystem } from '#test/support/system.ts';
import {
  countClients,
  expectRegistrationError,
  manageRegistration,
  postRegistration,
  publicMetadata,
  register,
} from './register.fixture.ts';

const system = useSystem({ DYNAMIC_CLIENT_REGISTRATION: 'open', RATE_LIMIT_REGISTER_PER_HOUR: '3' });

describe('DR-14 registrations per address', () => {
  it('DR-14 past the hourly limit: 429 with Retry-After in the OAuth JSON shape, nothing stored; refused attempts count too', async () => {
    const first = await register(system, publicMetadata());
    await register(system, publicMetadata());
    // A refused registration counts: each is work and, in token mode, a guess.
    expect((await postRegistration(system, publicMetadata({ redirect_uris: [] }))).status).toBe(400);
    const before = await countClients(system);
    const refused = await postRegistration(system, publicMetadata());
    expectRegistrationError(refused, 429, 'too_many_requests');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await countClients(system)).toBe(before);
    // Reading a registration is not a registration: it is not limited.
    const read = await manageRegistration(first.registration_client_uri, 'GET', first.registration_access_token);
    expect(read.status).toBe(200);
  });
});
