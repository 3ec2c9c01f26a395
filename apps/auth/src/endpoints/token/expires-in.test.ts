import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { exchangeCode, expectTokenResponse, refreshWith } from '../oauth-json/oauth-endpoint.fixture.ts';

// D-1: `expires_in` is a digit string by default; EXPIRES_IN_AS_NUMBER=true gives the JSON
// number strict RFC 6749 §5.1 clients expect (TK-OK-02).
let system: TestSystem;

beforeAll(async () => {
  system = await startSystem({ EXPIRES_IN_AS_NUMBER: 'true', TOKEN_TTL_SECONDS: '3600' });
});
afterAll(async () => {
  await system.close();
});

describe('D-1 expires_in as a JSON number', () => {
  it('TK-OK-02 EXPIRES_IN_AS_NUMBER=true gives a JSON number on code exchange and on refresh', async () => {
    const user = await makeUser(system);
    const app = await makeClient(system, user);
    const res = await exchangeCode(system, app, await makeCode(system, app.client, user));
    const raw = await res.clone().text();
    expect(raw).toContain('"expires_in":3600,');
    const first = await expectTokenResponse(res);
    expect(first.expires_in).toBe(3600);
    const second = await expectTokenResponse(await refreshWith(system, app, first.refresh_token));
    expect(second.expires_in).toBe(3600);
  });
});
