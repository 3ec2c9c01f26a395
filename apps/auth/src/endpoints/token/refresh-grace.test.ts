import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import {
  accessTokenWorks,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  refreshWith,
  type TokenResponse,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// DD-4's refresh-token reuse grace window, with the default REFRESH_REUSE_GRACE_SECONDS (30):
// an application that refreshes from several requests at once (Auth.js's rotation recipe does)
// keeps its grant; a reuse after the window, or of an older generation, still revokes it all.
const { system, user, app, other } = useTokenEndpoint();

async function freshPair(creds = app): Promise<TokenResponse> {
  return expectTokenResponse(await exchangeCode(system, creds, await makeCode(system, creds.client, user)));
}

async function familyIsDead(pair: TokenResponse): Promise<void> {
  expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
  await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
}

describe('RG refresh-token reuse grace window (REFRESH_REUSE_GRACE_SECONDS, default 30)', () => {
  it('RG-01 the default is 30 seconds', () => {
    expect(system.config.refreshReuseGraceSeconds).toBe(30);
  });

  it('RG-01 RT1 again 29 s after it was rotated: a fresh pair on the same grant, and the first pair keeps working', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    system.clock.advance(29_000);
    const again = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    expect(again.refresh_token).not.toBe(second.refresh_token);
    for (const pair of [second, again]) expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
    // Both refresh tokens rotate on as usual.
    const fromSecond = await expectTokenResponse(await refreshWith(system, app, second.refresh_token));
    expect(await accessTokenWorks(system, fromSecond.access_token)).toBe(true);
  });

  it('RG-02 2 parallel refreshes of one token inside the window both succeed, and both access tokens work', async () => {
    const first = await freshPair();
    const answers = await Promise.all([1, 2].map(() => refreshWith(system, app, first.refresh_token)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const pairs = await Promise.all(answers.map(expectTokenResponse));
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(2);
    for (const pair of pairs) expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
    // The access token the refreshed pair replaced is retired as with any rotation.
    expect(await accessTokenWorks(system, first.access_token)).toBe(false);
  });

  for (const kept of [0, 1]) {
    it(`RG-02 the app keeps working from answer ${kept + 1} of 2 parallel refreshes: it rotates on for three generations`, async () => {
      const first = await freshPair();
      const pairs = await Promise.all(
        (await Promise.all([1, 2].map(() => refreshWith(system, app, first.refresh_token)))).map(expectTokenResponse),
      );
      let current = pairs[kept]!;
      for (let generation = 0; generation < 3; generation++) {
        current = await expectTokenResponse(await refreshWith(system, app, current.refresh_token));
        expect(await accessTokenWorks(system, current.access_token)).toBe(true);
      }
    });
  }

  it('RG-03 a reuse after the window revokes the whole family, pairs issued in the window included', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    system.clock.advance(5_000);
    const inWindow = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    system.clock.advance(25_001); // 30.001 s after the rotation
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(second);
    await familyIsDead(inWindow);
  });

  it('RG-03 an older generation is reuse even inside the window: RT1 after RT2 was rotated to RT3 revokes everything', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const third = await expectTokenResponse(await refreshWith(system, app, second.refresh_token));
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(third);
  });

  it('RG-03 only the same client: another client presenting the token is invalid_grant and changes nothing', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    await expectOAuthError(await refreshWith(system, other, first.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(system, second.access_token)).toBe(true);
  });

  it('RG-03 a token the user revoked is not brought back by the window', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const revoke = await fetch(`${system.authUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: second.refresh_token,
        client_id: app.client.id,
        client_secret: app.clientSecret,
      }),
    });
    expect(revoke.status).toBe(200);
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
  });
});

describe('RG-04 REFRESH_REUSE_GRACE_SECONDS=0 turns the window off', () => {
  let strict: TestSystem;
  beforeAll(async () => {
    strict = await startSystem({ REFRESH_REUSE_GRACE_SECONDS: '0' });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('RG-04 RT1 again at once is reuse: the family is revoked', async () => {
    const owner = await makeUser(strict, 'Strict Owner');
    const person = await makeUser(strict, 'Strict User');
    const creds = await makeClient(strict, owner);
    const first = await expectTokenResponse(
      await exchangeCode(strict, creds, await makeCode(strict, creds.client, person)),
    );
    const second = await expectTokenResponse(await refreshWith(strict, creds, first.refresh_token));
    await expectOAuthError(await refreshWith(strict, creds, first.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(strict, second.access_token)).toBe(false);
  });
});

// HD-07: the window must not fork a grant into chains that reuse detection never sees. A stolen
// refresh token that its app has just rotated, presented inside the window, used to get a pair
// of its own; both chains then rotated for ever. Now the window honours a token again once, and
// once any child of a token is redeemed, its siblings are reuse (RFC 9700 §4.14.2).
describe('HD-07 the grace window honours a token again once and cannot fork a grant', () => {
  it('HD-07 a rotated token is honoured again once: the third presentation is reuse and revokes the family', async () => {
    const first = await freshPair();
    const rotated = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const again = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(rotated);
    await familyIsDead(again);
  });

  it("HD-07 the attack: a stolen token replayed in the window, then the app rotates on: the thief's pair is reuse and ends the grant", async () => {
    const first = await freshPair();
    const apps = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const thiefs = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const appsNext = await expectTokenResponse(await refreshWith(system, app, apps.refresh_token));
    // The thief's fork is a sibling of a token that was redeemed: reuse, the whole family goes.
    await expectOAuthError(await refreshWith(system, app, thiefs.refresh_token), 400, 'invalid_grant');
    expect(await accessTokenWorks(system, thiefs.access_token)).toBe(false);
    await familyIsDead(appsNext);
  });

  it('HD-07 the other way round: the thief rotates first, then the app is refused and the family is revoked', async () => {
    const first = await freshPair();
    const apps = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const thiefs = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const thiefsNext = await expectTokenResponse(await refreshWith(system, app, thiefs.refresh_token));
    await expectOAuthError(await refreshWith(system, app, apps.refresh_token), 400, 'invalid_grant');
    await familyIsDead(thiefsNext);
  });

  it('HD-07 a token is not honoured again once a child was redeemed, even inside the window', async () => {
    const first = await freshPair();
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const third = await expectTokenResponse(await refreshWith(system, app, second.refresh_token));
    // second was rotated (its child third is unused); first's child second was redeemed.
    await expectOAuthError(await refreshWith(system, app, first.refresh_token), 400, 'invalid_grant');
    await familyIsDead(third);
  });

  it('HD-07 10 parallel presentations of one token leave no live chain behind: at most 2 answers, and the extra presentations end the grant', async () => {
    const first = await freshPair();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refreshWith(system, app, first.refresh_token)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(2);
    for (const refused of answers.filter((a) => a.status !== 200))
      await expectOAuthError(refused, 400, 'invalid_grant');
    for (const pair of await Promise.all(ok.map(expectTokenResponse))) await familyIsDead(pair);
  });

  it('HD-07 the two pairs of a grace fork redeemed at the same moment: never both, and no chain survives', async () => {
    const first = await freshPair();
    const a = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const b = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    const answers = await Promise.all([a, b].map((pair) => refreshWith(system, app, pair.refresh_token)));
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const answer of answers) {
      if (answer.status === 200) await familyIsDead(await expectTokenResponse(answer));
      else await expectOAuthError(answer, 400, 'invalid_grant');
    }
  });
});
