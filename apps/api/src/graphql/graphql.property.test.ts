import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makePat, makeUser } from '#test/support/fixtures.ts';

let system: TestSystem;
let pat: string;

beforeAll(async () => {
  system = await startSystem();
  pat = await makePat(system, await makeUser(system));
});
afterAll(() => system?.close());

const ALLOWED = [200, 400, 401, 405, 406, 413, 415];

/** Bodies shaped like GraphQL requests, or nearly, or not at all. */
const graphqlish = fc.record(
  {
    query: fc.oneof(
      fc.constantFrom('{ profile { name } }', '{ profile { id name email } }', '{ __typename }', '{', 'mutation { x }', 'subscription { x }'),
      fc.string(),
      fc.jsonValue(),
    ),
    variables: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
    operationName: fc.oneof(fc.string(), fc.jsonValue()),
    extensions: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  graphqlish.map((value) => JSON.stringify(value)),
  fc.string(),
);

const headers = fc.record({
  'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/graphql'),
  accept: fc.constantFrom('*/*', 'application/json', 'application/graphql-response+json', 'application/xml', 'text/html, */*;q=0.1'),
  // 'valid' is replaced by the PAT, which exists only once beforeAll has run.
  authorization: fc.constantFrom('valid', 'valid', 'Bearer', 'Basic x', 'none'),
});

describe('property: random bodies to /graphql', () => {
  it('always answer a status in {200,400,401,405,406,413,415}, never 5xx, always no-store', async () => {
    await fc.assert(
      fc.asyncProperty(body, headers, fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'), async (text, rawHeaders, method) => {
        const { authorization, ...sent } = rawHeaders;
        if (authorization !== 'none') Object.assign(sent, { authorization: authorization === 'valid' ? `Bearer ${pat}` : authorization });
        const path = method === 'GET' ? `/graphql?query=${encodeURIComponent(text)}` : '/graphql';
        const response = await fetch(`${system.apiUrl}${path}`, { method, headers: sent, ...(method === 'GET' ? {} : { body: text }) });
        const answer = await response.text();
        expect(ALLOWED).toContain(response.status);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(() => JSON.parse(answer)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });
});
