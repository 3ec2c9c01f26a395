import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makePat, makeUser } from '#test/support/fixtures.ts';
import { postGraphql, type GraphqlAnswer, type GraphqlCall } from '../testing/post-graphql.ts';
import { getIntrospectionQuery } from './graphql-js.ts';
import { LIMITS } from './validation-rules.ts';

let system: TestSystem;
let pat: string;

beforeAll(async () => {
  system = await startSystem();
  pat = await makePat(system, await makeUser(system, 'Barbara Liskov'));
});
afterAll(() => system?.close());

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

function call(request: Omit<GraphqlCall, 'token'>): Promise<GraphqlAnswer> {
  return postGraphql(system.apiUrl, { token: pat, ...request });
}

/** A GraphQL-over-HTTP request error: status, JSON errors, no data, the API's headers. */
function expectRequestError(answer: GraphqlAnswer, status: number, message?: RegExp | string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('www-authenticate')).toBeNull();
  expect(answer.json.data).toBeUndefined();
  expect(answer.json.errors.length).toBeGreaterThan(0);
  if (message !== undefined) expect(answer.json.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(message);
  expect(answer.text).not.toMatch(/\n\s+at |node_modules/);
}

const OK = { data: { profile: { name: 'Barbara Liskov' } } };

describe('POST /graphql, the documented interface', () => {
  it('answers { profile { name } } with the token user\'s name', async () => {
    const answer = await call({ query: '{ profile { name } }' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.json).toEqual(OK);
  });

  it('accepts variables and operationName', async () => {
    const answer = await call({
      body: JSON.stringify({
        query: 'query A { profile { id } } query B($skip: Boolean!) { profile { name email @skip(if: $skip) } }',
        operationName: 'B',
        variables: { skip: true },
      }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(OK);
  });

  it('answers GET ?query= for queries (GraphQL over HTTP §GET)', async () => {
    const answer = await call({ method: 'GET', path: '/graphql?query=%7B%20profile%20%7B%20name%20%7D%20%7D' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(OK);
  });

  it('any other path is a JSON 404', async () => {
    for (const path of ['/', '/graphql/', '/graphiql', '/GRAPHQL', '/graphql/../admin']) {
      const answer = await call({ path });
      expectRequestError(answer, 404, 'Not found');
      expect(answer.json.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });
});

describe('bad input to /graphql', () => {
  it('GQ-11 a raw newline inside the JSON query string is invalid JSON: 400 with a JSON error', async () => {
    const answer = await call({ body: '{"query":"{ profile\n{ name } }"}' });
    expectRequestError(answer, 400);
    expect(answer.json).toEqual({ errors: [{ message: 'Unparsable JSON body' }] });
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('GQ-12 the same query with the newline escaped: 200', async () => {
    const answer = await call({ body: '{"query":"{ profile\\n{ name } }"}' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(OK);
  });

  it('GQ-13 a body that is not JSON: 400', async () => {
    expectRequestError(await call({ body: 'NONSENSE' }), 400, 'Unparsable JSON body');
    expectRequestError(await call({ body: '{"query":' }), 400, 'Unparsable JSON body');
    expectRequestError(await call({ body: '' }), 400, 'Missing body');
  });

  it.each([
    ['a misspelt "query" key', { qeury: '{ profile { name } }' }, 'Missing query'],
    ['query as a number', { query: 42 }, 'Invalid query'],
    ['query as an object', { query: { profile: 'name' } }, 'Invalid query'],
    ['query as an array', { query: ['{ profile { name } }'] }, 'Invalid query'],
    ['variables as an array', { query: '{ profile { name } }', variables: [1] }, 'Invalid variables'],
    ['variables as a string', { query: '{ profile { name } }', variables: '{}' }, 'Invalid variables'],
    ['operationName as a number', { query: '{ profile { name } }', operationName: 1 }, 'Invalid operationName'],
  ])('GQ-14 %s: 400', async (_name, body, message) => {
    expectRequestError(await call({ body: JSON.stringify(body) }), 400, message);
  });

  it('GQ-15 batched operations are not supported: 400', async () => {
    const body = JSON.stringify([{ query: '{ profile { name } }' }, { query: '{ profile { name } }' }]);
    expectRequestError(await call({ body }), 400, 'Missing query');
  });

  it('GQ-16 a document that does not parse: 400 with graphql-response+json (200 with application/json, graphql-http 1.23)', async () => {
    const strict = await call({ query: '{', headers: { accept: GRAPHQL_RESPONSE } });
    expectRequestError(strict, 400, /Syntax Error/);
    expect(strict.headers.get('content-type')).toBe(`${GRAPHQL_RESPONSE}; charset=utf-8`);
    const legacy = await call({ query: '{', headers: { accept: 'application/json' } });
    expect(legacy.status).toBe(200);
    expect(legacy.json.data).toBeUndefined();
    expect(legacy.json.errors[0].message).toMatch(/Syntax Error/);
  });

  it('GQ-17 an unknown field: 400 with graphql-response+json; suggestions only outside production', async () => {
    const answer = await call({ query: '{ profile { nme } }', headers: { accept: GRAPHQL_RESPONSE } });
    expectRequestError(answer, 400, 'Cannot query field "nme" on type "Profile".');
    // NODE_ENV=test here; production-mode.test.ts checks that the suggestion is gone there.
    expect(answer.json.errors[0].message).toContain('Did you mean "name"?');
  });

  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart/form-data', 'multipart/form-data; boundary=x'],
  ])('GQ-18 %s: 415 (also the CSRF guard: no "simple" cross-site request gets in)', async (_name, contentType) => {
    const response = await fetch(`${system.apiUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat}`, ...(contentType ? { 'content-type': contentType } : {}) },
      body: contentType === undefined ? new Uint8Array(Buffer.from('{"query":"{ profile { name } }"}')) : '{"query":"{ profile { name } }"}',
    });
    const answer = { status: response.status, headers: response.headers, text: await response.text(), json: undefined as any };
    answer.json = JSON.parse(answer.text);
    expectRequestError(answer, 415, 'Unsupported Media Type');
  });

  it('GQ-19 a mutation over GET: 405 with Allow: POST, never executed; PUT: 405 with Allow: GET, POST', async () => {
    const viaGet = await call({ method: 'GET', path: '/graphql?query=mutation%7B__typename%7D', headers: { accept: GRAPHQL_RESPONSE } });
    expectRequestError(viaGet, 405, 'Cannot perform mutations over GET');
    expect(viaGet.headers.get('allow')).toBe('POST');
    const put = await call({ method: 'PUT', body: '{"query":"{ profile { name } }"}' });
    expectRequestError(put, 405, 'Method Not Allowed');
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('GQ-20 Accept: application/xml only: 406', async () => {
    expectRequestError(await call({ headers: { accept: 'application/xml' } }), 406, 'Not Acceptable');
  });

  it('GQ-21 a 200 kB body: 413 with a JSON error, declared or streamed', async () => {
    const big = JSON.stringify({ query: `{ profile { name } } # ${'x'.repeat(200_000)}` });
    const declared = await call({ body: big });
    expectRequestError(declared, 413, 'The request body is larger than 102400 bytes.');
    expect(declared.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');

    const chunks = [big.slice(0, 60_000), big.slice(60_000, 120_000), big.slice(120_000)];
    const streamed = await fetch(`${system.apiUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pat}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(streamed.headers.get('cache-control')).toBe('no-store');
    expect(((await streamed.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('GQ-22 a document of 5,000 tokens: 400 from the token limit', async () => {
    const query = `{ profile { ${'name '.repeat(4_995)}} }`;
    expectRequestError(await call({ query, headers: { accept: GRAPHQL_RESPONSE } }), 400, new RegExp(`Document contains more tha[nt] ${LIMITS.maxTokens} tokens`));
  });

  it('GQ-23 depth 20: 400 from the depth limit (never a 500)', async () => {
    const nested = (depth: number): string => (depth === 0 ? 'name' : `ofType { ${nested(depth - 1)} }`);
    const query = `{ __type(name: "Profile") { fields { type { ${nested(17)} } } } }`;
    expectRequestError(await call({ query, headers: { accept: GRAPHQL_RESPONSE } }), 400, `Query depth limit of ${LIMITS.maxDepth} exceeded`);
    // Within the limit the same shape is fine.
    const shallow = await call({ query: `{ __type(name: "Profile") { fields { type { ${nested(3)} } } } }` });
    expect(shallow.status).toBe(200);
    expect(shallow.json.errors).toBeUndefined();
  });

  it('GQ-24 alias bombs, directive floods and fragment cycles: 400', async () => {
    const aliases = `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: profile { name }`).join(' ')} }`;
    expectRequestError(await call({ query: aliases, headers: { accept: GRAPHQL_RESPONSE } }), 400, `Aliases limit of ${LIMITS.maxAliases} exceeded`);
    const thousand = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: profile { name }`).join(' ')} }`;
    expectRequestError(await call({ query: thousand, headers: { accept: GRAPHQL_RESPONSE } }), 400, /Document contains more tha[nt]/);
    const directives = `{ profile { name ${'@skip(if: false) '.repeat(100)}} }`;
    expectRequestError(await call({ query: directives, headers: { accept: GRAPHQL_RESPONSE } }), 400, 'Directives limit of');
    const cycle = '{ profile { ...A } } fragment A on Profile { name ...B } fragment B on Profile { ...A }';
    expectRequestError(await call({ query: cycle, headers: { accept: GRAPHQL_RESPONSE } }), 400, 'Cannot spread fragment "A" within itself');
  });

  it('GQ-26 introspection, where enabled, is bounded by the depth and token limits', async () => {
    const nested = (depth: number): string => (depth === 0 ? 'name' : `ofType { ${nested(depth - 1)} }`);
    const deep = `{ __type(name: "Query") { ${nested(30)} } }`;
    expectRequestError(await call({ query: deep, headers: { accept: GRAPHQL_RESPONSE } }), 400, 'Query depth limit');
    const schema = await call({ query: '{ __schema { queryType { name } } }' });
    expect(schema.json).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    // The portal's explorer (GraphiQL) sends the full introspection query: it fits the limits.
    const full = await call({
      query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
    });
    expect(full.status).toBe(200);
    expect(full.json.errors).toBeUndefined();
    expect(full.json.data.__schema.types.map((t: { name: string }) => t.name)).toContain('Profile');
  });

  it('GQ-27 several operations without operationName: 400', async () => {
    const answer = await call({ query: 'query A { profile { name } } query B { profile { id } }', headers: { accept: GRAPHQL_RESPONSE } });
    expectRequestError(answer, 400, 'Unable to detect operation AST');
  });

  it('GQ-28 variables of the wrong type: 400 with graphql-response+json', async () => {
    const answer = await call({
      body: JSON.stringify({ query: 'query ($skip: Boolean!) { profile { name @skip(if: $skip) } }', variables: { skip: 'yes' } }),
      headers: { accept: GRAPHQL_RESPONSE },
    });
    expectRequestError(answer, 400, /Variable "\$skip" got invalid value "yes"/);
  });

  it('GQ-30 NUL characters and lone surrogates in the query: 4xx or 200, never 5xx', async () => {
    for (const body of [
      JSON.stringify({ query: '{ profile { name } }\u0000' }),
      '{"query":"{ profile { name } } # \\ud800"}',
      '{"query":"{ profile { na\\udc00me } }"}',
      '{"query":"\\u0000"}',
    ]) {
      const answer = await call({ body });
      expect([200, 400]).toContain(answer.status);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    expect((await call({ query: '{ profile { name } }' })).json).toEqual(OK);
  });
});
