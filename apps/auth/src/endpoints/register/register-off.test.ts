// DR-01: DYNAMIC_CLIENT_REGISTRATION=off (the default): no registration endpoint at all.
import { describe, expect, it } from 'vitest';
import { useSystem } from '#test/support/system.ts';
import { countClients, manageRegistration, postRegistration, publicMetadata, registerUrl } from './register.fixture.ts';

const system = useSystem();

describe('DR-01 dynamic client registration is off by default', () => {
  it('DR-01 POST /oauth/register is a 404 like any unknown path, and nothing is stored', async () => {
    expect(system.config.dynamicClientRegistration.mode).toBe('off');
    const before = await countClients(system);
    const answer = await postRegistration(system, publicMetadata(), { accept: 'application/json' });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'not_found', error_description: 'No such endpoint.' });
    expect(await countClients(system)).toBe(before);
    const read = await manageRegistration(`${registerUrl(system)}/lkc_${'x'.repeat(24)}`, 'GET', undefined, {
      accept: 'application/json',
    });
    expect(read.status).toBe(404);
  });

  it('DR-01 neither metadata document lists a registration_endpoint', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const metadata = (await (await fetch(`${system.authUrl}${path}`)).json()) as Record<string, unknown>;
      expect(metadata, path).not.toHaveProperty('registration_endpoint');
    }
  });
});
