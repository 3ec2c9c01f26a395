import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import {
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  postForm,
  refreshWith,
  revokeUrl,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// D-10 and TK-DB-01: with the database gone, the token and revocation endpoints answer 503
// with Retry-After, never invalid_grant (the client would drop a valid refresh token) and
// never invalid_client.
let system: TestSystem;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(async () => {
  await system.close();
});

describe('TK-DB-01 database down', () => {
  it('TK-DB-01 code exchange, refresh and revocation answer 503 temporarily_unavailable with Retry-After', async () => {
    const user = await makeUser(system);
    const app = await makeClient(system, user);
    const pair = await expectTokenResponse(await exchangeCode(system, app, await makeCode(system, app.client, user)));
    const code = await makeCode(system, app.client, user);

    await system.db.destroy();

    const answers = [
      await exchangeCode(system, app, code),
      await refreshWith(system, app, pair.refresh_token, { bearer: pair.access_token }),
      await postForm(revokeUrl(system), {
        token: pair.refresh_token,
        client_id: app.client.id,
        client_secret: app.clientSecret,
      }),
      // Even a wrong secret is not reported as invalid_client when it could not be checked.
      await exchangeCode(system, { ...app, clientSecret: 'lks_wrong' }, code),
    ];
    for (const res of answers) {
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await expectOAuthError(res, 503, 'temporarily_unavailable');
      expect(JSON.stringify(body)).not.toMatch(/sqlite|destroyed|kysely/i);
    }
    const logged = system.logs.join('\n');
    expect(logged).toContain('oauth request failed');
    expect(logged).not.toContain(pair.refresh_token);
    expect(logged).not.toContain(app.clientSecret);
  });
});
