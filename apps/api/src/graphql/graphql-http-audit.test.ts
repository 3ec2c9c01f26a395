import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits, type AuditResult } from 'graphql-http';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makePat, makeUser } from '#test/support/fixtures.ts';

let system: TestSystem;
let results: AuditResult[];

beforeAll(async () => {
  system = await startSystem();
  const pat = await makePat(system, await makeUser(system));
  // Every audit request carries a valid token: the audit checks GraphQL over HTTP, not auth.
  const fetchFn = (input: string | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${pat}`);
    return fetch(input, { ...init, headers });
  };
  const audits = serverAudits({ url: `${system.apiUrl}/graphql`, fetchFn });
  results = await Promise.all(audits.map((audit) => audit.fn()));
});
afterAll(() => system?.close());

describe('D-7 graphql-http serverAudits (GraphQL over HTTP, pre-2026 draft)', () => {
  it('runs every audit', () => {
    expect(results.length).toBeGreaterThanOrEqual(50);
  });

  it('passes every MUST audit', () => {
    const failed = results.filter((r) => r.name.startsWith('MUST') && r.status !== 'ok');
    expect(failed.map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`)).toEqual([]);
  });

  it('passes every SHOULD and MAY audit too', () => {
    const failed = results.filter((r) => r.status !== 'ok');
    expect(failed.map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`)).toEqual([]);
  });
});
