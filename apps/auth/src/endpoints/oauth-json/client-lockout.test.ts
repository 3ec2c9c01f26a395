import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { postFormFrom } from '#test/support/loopback.ts';
import { PortalBrowser, startPortalSystem, type PortalSystem } from '#test/support/portal-system.ts';

// Issue 15 §1, HD-01 (docs/hardening.md): client ids are public (the portal's is in every
// /bff/login redirect), so the per-client failure limit must never refuse a client whose
// credentials are right, or anyone could lock any client out of the token endpoint.
const ATTACKER = '127.0.0.9';
const LIMIT = 20; // RATE_LIMIT_TOKEN_PER_MINUTE's default
let system: PortalSystem;

beforeAll(async () => {
  system = await startPortalSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: String(LIMIT) });
});
afterAll(() => system?.close());

async function tokenRequestFrom(localAddress: string, form: Record<string, string>): Promise<{ status: number }> {
  return postFormFrom(localAddress, `${system.authUrl}/oauth/token`, form);
}

describe('HD-01 nobody can lock a client out of the token endpoint', () => {
  it('HD-01 25 bad secrets for the portal’s client id from another address: the portal sign-in still completes, a third-party exchange still answers, the attacker gets 429', async () => {
    const user = await makeUser(system, 'Hedy Lamarr');
    const owner = await makeUser(system, 'Olive Owner');
    const app = await makeClient(system, owner, { name: 'Weather Widget' });
    const answers: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const guess = await tokenRequestFrom(ATTACKER, {
        grant_type: 'authorization_code',
        code: 'guess',
        redirect_uri: system.config.portal.redirectUri,
        client_id: system.config.portal.clientId,
        client_secret: `lks_guess${i}`,
      });
      answers.push(guess.status);
    }
    expect(answers.slice(0, LIMIT)).toEqual(Array<number>(LIMIT).fill(401));
    expect(answers.slice(LIMIT)).toEqual(Array<number>(25 - LIMIT).fill(429));

    // The portal (from 127.0.0.1) signs a user in: its code exchange is not refused.
    const browser = new PortalBrowser(system);
    const done = await browser.signIn(user);
    expect(done.status).toBe(302);
    expect(done.location).not.toContain('error=');
    expect((await browser.request('/bff/session')).status).toBe(200);

    // A third-party app's correct exchange answers too.
    const code = await makeCode(system, app.client, user);
    const exchange = await tokenRequestFrom('127.0.0.1', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.client.redirectUris[0]!,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    expect(exchange.status).toBe(200);

    // The attacking address itself stays limited, even with the portal's right secret.
    const again = await tokenRequestFrom(ATTACKER, {
      grant_type: 'authorization_code',
      code: 'guess',
      redirect_uri: system.config.portal.redirectUri,
      client_id: system.config.portal.clientId,
      client_secret: system.config.portal.clientSecret,
    });
    expect(again.status).toBe(429);
  });
});
