import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makePat, makeUser } from '#test/support/fixtures.ts';
import { capturingLogger, startStandaloneApi, type StandaloneApi } from '../testing/api-server.ts';
import { postGraphql } from '../testing/post-graphql.ts';

// The API under a production configuration (as loadConfig makes it for NODE_ENV=production:
// introspection off), on the system's real database.
let system: TestSystem;
let production: StandaloneApi;
let pat: string;

beforeAll(async () => {
  system = await startSystem();
  pat = await makePat(system, await makeUser(system, 'Frances Allen'));
  production = await startStandaloneApi({
    config: { ...system.config, env: 'production', graphqlIntrospection: false },
    db: system.db,
    clock: system.clock,
    logger: capturingLogger().logger,
  });
});
afterAll(async () => {
  await production?.stop();
  await production?.app.close();
  await system?.close();
});

const accept = { accept: 'application/graphql-response+json' };

describe('production mode', () => {
  it('GQ-17 validation errors carry no "Did you mean" suggestions', async () => {
    const answer = await postGraphql(production.url, { token: pat, query: '{ profile { nme emial } }', headers: accept });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json.data).toBeUndefined();
    expect(answer.json.errors.map((e: { message: string }) => e.message)).toEqual([
      'Cannot query field "nme" on type "Profile".',
      'Cannot query field "emial" on type "Profile".',
    ]);
    expect(answer.text).not.toContain('Did you mean');
    expect(answer.text).not.toContain('"name"');
  });

  it('GQ-17 no suggestions for unknown root fields or arguments either', async () => {
    const answer = await postGraphql(production.url, { token: pat, query: '{ profil { name } profile(nam: 1) { name } }', headers: accept });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain('Did you mean');
  });

  it('GQ-25 introspection is refused with 400; __typename still works', async () => {
    for (const query of ['{ __schema { types { name } } }', '{ __type(name: "Profile") { fields { name } } }']) {
      const answer = await postGraphql(production.url, { token: pat, query, headers: accept });
      expect(answer.status).toBe(400);
      expect(answer.json.data).toBeUndefined();
      expect(answer.json.errors[0].message).toMatch(/GraphQL introspection has been disabled/);
    }
    const typename = await postGraphql(production.url, { token: pat, query: '{ __typename profile { name } }' });
    expect(typename.status).toBe(200);
    expect(typename.json).toEqual({ data: { __typename: 'Query', profile: { name: 'Frances Allen' } } });
  });

  it('the development API on the same database still suggests and introspects (the contrast)', async () => {
    const suggestion = await postGraphql(system.apiUrl, { token: pat, query: '{ profile { nme } }', headers: accept });
    expect(suggestion.json.errors[0].message).toContain('Did you mean "name"?');
    const introspection = await postGraphql(system.apiUrl, { token: pat, query: '{ __schema { queryType { name } } }' });
    expect(introspection.json).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});
