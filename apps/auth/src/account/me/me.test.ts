import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

let system: TestSystem;

beforeAll(async () => {
  system = await startSystem();
});

afterAll(async () => {
  await system?.close();
});

describe('GET /account/me (DD-8)', () => {
  it('returns the signed-in user as {id, name, email}, no-store', async () => {
    const ada = await makeUser(system, 'Ada Lovelace');
    const grace = await makeUser(system, 'Grace Hopper');
    const res = await callAccount(system, 'GET', '/account/me', { token: await issuePortalToken(system, ada) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: ada.id, name: 'Ada Lovelace', email: ada.email });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const other = await callAccount(system, 'GET', '/account/me', { token: await issuePortalToken(system, grace) });
    expect(other.body).toEqual({ id: grace.id, name: 'Grace Hopper', email: grace.email });
  });

  it('HEAD answers like GET without a body', async () => {
    const user = await makeUser(system);
    const token = await issuePortalToken(system, user);
    const res = await callAccount(system, 'HEAD', '/account/me', { token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
