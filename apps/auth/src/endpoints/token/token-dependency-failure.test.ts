import { describe, expect, it } from 'vitest';
import { anOutage } from '#test/support/faults.ts';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  accessTokenWorks,
  countRows,
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
const system = useSystem();

// a refresh that fails part-way. A crash before the commit is a transaction that never
// commits; here the database fails inside it, after the refresh token was marked used.
describe('R-04 a refresh that fails part-way', () => {
  it('R-04 (b) fails before it commits: the old refresh token still works and no row was left behind', async () => {
    const user = await makeUser(system);
    const app = await makeClient(system, user);
    const pair = await expectTokenResponse(await exchangeCode(system, app, await makeCode(system, app.client, user)));
    const rows = async () => [
      await countRows(system, 'access_tokens', { userId: user.id }),
      await countRows(system, 'refresh_tokens', { userId: user.id }),
    ];
    const before = await rows();

    // The refresh token is read and marked used before the grant's access tokens are touched.
    system.faults.failQueriesOn('access_tokens', anOutage);
    try {
      await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 503, 'temporarily_unavailable');
    } finally {
      system.faults.clear();
    }

    expect(await rows()).toEqual(before);
    expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
    const retried = await expectTokenResponse(await refreshWith(system, app, pair.refresh_token));
    expect(await accessTokenWorks(system, retried.access_token)).toBe(true);
  });

  it('R-04 (a) committed but never delivered: retried within the grace window, a pair that works; after it, refused and the undelivered pair dies too', async () => {
    const user = await makeUser(system);
    const app = await makeClient(system, user);
    const pair = await expectTokenResponse(await exchangeCode(system, app, await makeCode(system, app.client, user)));
    // The answer is lost on the way: the client never sees this pair.
    const undelivered = await expectTokenResponse(await refreshWith(system, app, pair.refresh_token));

    // The client retries at once with the token it still has (RG-01).
    const retried = await expectTokenResponse(await refreshWith(system, app, pair.refresh_token));
    expect(await accessTokenWorks(system, retried.access_token)).toBe(true);

    // A retry after the window is reuse: everything of the grant dies, the undelivered pair included.
    system.clock.advance((system.config.refreshReuseGraceSeconds + 1) * 1000);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
    await expectOAuthError(await refreshWith(system, app, undelivered.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(system, undelivered.access_token)).toBe(false);
    expect(await accessTokenWorks(system, retried.access_token)).toBe(false);
  });
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
