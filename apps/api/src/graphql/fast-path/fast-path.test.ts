import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalAccessToken, type Principal } from '@latchkey/core';
import { makePat, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { challengesOf } from '../../bearer/challenge.ts';
import { capturingLogger } from '../../testing/api-server.ts';
import { insufficientScopeChallenge } from '../../testing/post-graphql.ts';
import type { ApiContext } from '../api-context.ts';
import { createGraphqlHandler, type GraphqlHandler } from '../graphql.handler.ts';
import type { RouteContext } from '../insufficient-scope.ts';
import {
  GraphQLError,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
} from '../graphql-js.ts';
import { profileField } from '../profile/profile.schema.ts';

// The fast path (fast-path.ts) must answer exactly what graphql-http answers, or leave the
// request to it. Each case here goes to both, on the same handler and document cache.

const principal: Principal = {
  tokenId: 'tok_1',
  kind: 'pat',
  userId: 'usr_1',
  userName: 'Grace Hopper',
  userEmail: 'grace@example.test',
  clientId: null,
  issuedAt: Date.UTC(2026, 0, 1),
  expiresAt: Date.UTC(2030, 0, 1),
  firstParty: false,
  scopes: ['profile', 'email'],
  audience: LATCHKEY_API_AUDIENCE,
};

/** A token without `email` (SC-06): a query that selects it is refused 403 on both paths. */
const profileOnly: Principal = { ...principal, scopes: ['profile'] };

/** The route's challenges for /graphql of an API at API_URL (RS-15). */
const API_URL = 'https://api.example.test';
const challenges = challengesOf({ metadataUrl: `${API_URL}/.well-known/oauth-protected-resource/graphql` });

/** The API's schema plus fields that fail in each way a resolver can, and one that is async. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, ApiContext>({
    name: 'Query',
    fields: {
      profile: profileField,
      echo: {
        type: GraphQLString,
        args: { text: { type: GraphQLString } },
        resolve: (_root, args: { text?: string | null }) => args.text,
      },
      later: { type: GraphQLString, resolve: async () => 'later' },
      broken: {
        type: GraphQLString,
        resolve: () => {
          throw new Error('SQLITE_CORRUPT: database disk image is malformed');
        },
      },
      forbidden: {
        type: GraphQLString,
        resolve: () => {
          throw new GraphQLError('You may not see this.', { extensions: { code: 'FORBIDDEN' } });
        },
      },
      missing: { type: new GraphQLNonNull(GraphQLString), resolve: () => null },
    },
  }),
});

const DOCUMENTS = [
  '{ profile { name } }',
  '{ profile { id name email __typename } }',
  '{ me: profile { n: name ...F } } fragment F on Profile { email }',
  'query ($skip: Boolean!) { profile { name email @skip(if: $skip) } }',
  'query ($on: Boolean = true) { profile { name @include(if: $on) } }',
  'query ($text: String) { echo(text: $text) }',
  'query A { profile { id } } query B { profile { name } }',
  '{ later profile { name } }',
  '{ broken profile { name } }',
  '{ forbidden }',
  '{ missing }',
  'mutation { profile { name } }',
  'subscription { profile { name } }',
  '{ profile { nme } }',
  '{ __schema { queryType { name } } }',
];

const ACCEPTS = [
  undefined,
  '',
  '*/*',
  'application/json',
  'application/graphql-response+json',
  'application/graphql-response+json, application/json',
  'application/json; charset=utf-8, application/graphql-response+json',
  'application/graphql-response+json; charset=latin1, application/*',
  'text/html, */*;q=0.1',
  'application/xml',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON ; Charset=UTF-8',
  'application/json; charset=latin1',
  'text/plain',
  undefined,
];

function newHandler(): GraphqlHandler {
  return createGraphqlHandler({ schema, logger: capturingLogger().logger, introspection: false, production: true });
}

interface Compared {
  /** Body, status, Content-Type and, on a 403, WWW-Authenticate. */
  fast: readonly [string, number, string, ...string[]] | undefined;
  general: readonly [string | null, number, string | undefined, ...string[]];
}

function challengeOf(headers: OutgoingHttpHeaders | undefined): string[] {
  const challenge = headers?.['www-authenticate'];
  return challenge === undefined ? [] : [String(challenge)];
}

/** graphql-http's answer, then (with the cache now filled) the fast path's, for one request. */
async function both(
  handler: GraphqlHandler,
  headers: IncomingHttpHeaders,
  body: string,
  context: RouteContext = { principal, challenges },
): Promise<Compared> {
  const [generalBody, init] = await handler({
    method: 'POST',
    url: '/graphql',
    headers,
    body,
    raw: { headers } as IncomingMessage,
    context,
  });
  const general = [
    generalBody,
    init.status,
    init.headers?.['content-type'] as string | undefined,
    ...challengeOf(init.headers),
  ] as const;
  const answered = handler.fast(headers, body, context);
  const fast = answered instanceof Promise ? await answered : answered;
  return { general, fast: fast && ([fast[0], fast[1], fast[2], ...challengeOf(fast[3])] as const) };
}

function headersOf(accept: string | undefined, contentType: string | undefined): IncomingHttpHeaders {
  return {
    ...(accept === undefined ? {} : { accept }),
    ...(contentType === undefined ? {} : { 'content-type': contentType }),
  };
}

describe('fast path: the same answers as graphql-http', () => {
  it('answers the common request itself, identically', async () => {
    const handler = newHandler();
    for (const accept of [undefined, '*/*', 'application/json', 'application/graphql-response+json']) {
      const { fast, general } = await both(
        handler,
        headersOf(accept, 'application/json'),
        '{"query":"{ profile { name } }"}',
      );
      expect(fast).toBeDefined();
      expect(fast).toEqual(general);
      expect(JSON.parse(fast![0])).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
    }
  });

  it.each([
    ['variables and @skip', { query: DOCUMENTS[3], variables: { skip: true } }],
    ['a default value', { query: DOCUMENTS[4] }],
    [
      'null variables, operationName and extensions',
      { query: DOCUMENTS[0], variables: null, operationName: null, extensions: null },
    ],
    ['extensions', { query: DOCUMENTS[0], extensions: { persistedQuery: { version: 1 } } }],
    ['an operation picked by name', { query: DOCUMENTS[6], operationName: 'B' }],
    ['a fragment and aliases', { query: DOCUMENTS[2] }],
    ['an async resolver', { query: DOCUMENTS[7] }],
    ['a resolver that throws (masked, GQ-29)', { query: DOCUMENTS[8] }],
    ['a resolver that throws a GraphQLError', { query: DOCUMENTS[9] }],
    ['null in a non-null field', { query: DOCUMENTS[10] }],
    ['a variable that fails coercion (GQ-28)', { query: DOCUMENTS[3], variables: { skip: 'yes' } }],
    ['a missing required variable', { query: DOCUMENTS[3], variables: {} }],
    ['a string with escapes and non-ASCII', { query: DOCUMENTS[5], variables: { text: '"\\\u2028 😀 </script>' } }],
  ])('%s', async (_name, request) => {
    const handler = newHandler();
    for (const accept of [undefined, 'application/graphql-response+json']) {
      const { fast, general } = await both(handler, headersOf(accept, 'application/json'), JSON.stringify(request));
      expect(fast).toBeDefined();
      expect(fast).toEqual(general);
    }
  });

  it.each([
    ['a field', { query: '{ profile { email } }' }, 'email'],
    ['a field beside allowed ones', { query: '{ profile { id name email } }' }, 'email'],
    ['a field in a fragment', { query: DOCUMENTS[2] }, 'email'],
    ['a field in an inline fragment', { query: '{ profile { ... on Profile { email } } }' }, 'email'],
    ['a field under @skip, whatever the variable', { query: DOCUMENTS[3], variables: { skip: true } }, 'email'],
    ['a field under @skip with a variable that fails coercion', { query: DOCUMENTS[3], variables: { skip: 'yes' } }, 'email'],
    ['a field of the named operation', { query: 'query A { profile { email } } query B { profile { name } }', operationName: 'A' }, 'email'],
  ])('SC-06 a token without the scope of %s: the same 403, challenge and error, and no data', async (_name, request, scope) => {
    const handler = newHandler();
    for (const accept of [undefined, 'application/graphql-response+json']) {
      const { fast, general } = await both(
        handler,
        headersOf(accept, 'application/json'),
        JSON.stringify(request),
        { principal: profileOnly, challenges },
      );
      expect(fast).toBeDefined();
      expect(fast).toEqual(general);
      expect(fast![1]).toBe(403);
      expect(fast![3]).toBe(insufficientScopeChallenge(API_URL, scope));
      expect(JSON.parse(fast![0])).toEqual({
        errors: [
          {
            message: `The access token lacks the scope this query needs: ${scope}.`,
            extensions: { code: 'INSUFFICIENT_SCOPE', scopes: [scope] },
          },
        ],
      });
    }
  });

  it('SC-06 a token without the scope of an operation not picked, of __typename or of profile itself: answered', async () => {
    const handler = newHandler();
    for (const request of [
      { query: 'query A { profile { email } } query B { profile { name } }', operationName: 'B' },
      { query: '{ profile { __typename } __typename }' },
      { query: DOCUMENTS[0] },
    ]) {
      const { fast, general } = await both(handler, headersOf(undefined, 'application/json'), JSON.stringify(request), {
        principal: profileOnly,
        challenges,
      });
      expect(fast).toEqual(general);
      expect(fast![1]).toBe(200);
    }
  });

  it.each([
    ['a document seen for the first time', null],
    ['an invalid document', '{ profile { nme } }'],
    ['introspection while it is off (GQ-25)', '{ __schema { queryType { name } } }'],
    ['several operations and no operationName (GQ-27)', DOCUMENTS[6]],
    ['a subscription', DOCUMENTS[12]],
  ])('leaves %s to graphql-http', async (_name, query) => {
    const handler = newHandler();
    const headers = headersOf(undefined, 'application/json');
    if (query === null) {
      expect(
        handler.fast(headers, JSON.stringify({ query: '{ profile { email } }' }), { principal, challenges }),
      ).toBeUndefined();
    } else {
      const { fast, general } = await both(handler, headers, JSON.stringify({ query }));
      expect(fast).toBeUndefined();
      expect(general[0]).toContain('errors');
    }
  });

  it('a custom scalar that serializes to an Error: shown as its message only, as graphql-http does', async () => {
    const Odd = new GraphQLScalarType({
      name: 'Odd',
      serialize: () => Object.assign(new Error('raw'), { secret: 'x' }),
    });
    const oddSchema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { odd: { type: Odd, resolve: () => 1 } } }),
    });
    const handler = createGraphqlHandler({
      schema: oddSchema,
      logger: capturingLogger().logger,
      introspection: false,
      production: true,
    });
    const { fast, general } = await both(handler, headersOf(undefined, 'application/json'), '{"query":"{ odd }"}');
    expect(fast).toEqual(general);
    expect(JSON.parse(fast![0])).toEqual({ data: { odd: { message: 'raw' } } });
  });

  it('leaves malformed requests and other media types to graphql-http', async () => {
    const handler = newHandler();
    await both(handler, headersOf(undefined, 'application/json'), '{"query":"{ profile { name } }"}');
    const cases: [IncomingHttpHeaders, string][] = [
      [headersOf(undefined, 'text/plain'), '{"query":"{ profile { name } }"}'],
      [headersOf(undefined, undefined), '{"query":"{ profile { name } }"}'],
      [headersOf(undefined, 'application/json; charset=latin1'), '{"query":"{ profile { name } }"}'],
      [headersOf('application/xml', 'application/json'), '{"query":"{ profile { name } }"}'],
      [headersOf(undefined, 'application/json'), ''],
      [headersOf(undefined, 'application/json'), '{"query":'],
      [headersOf(undefined, 'application/json'), '[{"query":"{ profile { name } }"}]'],
      [headersOf(undefined, 'application/json'), '{"query":"{ profile { name } }","variables":[1]}'],
      [headersOf(undefined, 'application/json'), '{"query":"{ profile { name } }","operationName":1}'],
      [headersOf(undefined, 'application/json'), '{"query":"{ profile { name } }","extensions":"x"}'],
    ];
    for (const [headers, body] of cases) expect(handler.fast(headers, body, { principal, challenges })).toBeUndefined();
  });

  it('property: for any body and headers, the fast path answers as graphql-http does or not at all', async () => {
    const handler = newHandler();
    let answered = 0;
    const json = fc.jsonValue({ maxDepth: 2 });
    // Mostly well-formed requests (so that many take the fast path), some with any JSON in each field.
    const mostly = <T>(usual: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 3, arbitrary: usual }, { weight: 1, arbitrary: json });
    const request = fc.record(
      {
        query: mostly(fc.constantFrom(...DOCUMENTS)),
        variables: mostly(
          fc.record({ skip: fc.boolean(), on: fc.oneof(fc.boolean(), json), text: json }, { requiredKeys: [] }),
        ),
        operationName: mostly(fc.constantFrom('A', 'B', 'C', null, null, null)),
        extensions: mostly(fc.constantFrom({}, null, { trace: true })),
      },
      { requiredKeys: [] },
    );
    // Requests the fast path is for: a valid document with variables of the right type, or near it.
    const wellFormed = fc.oneof(
      fc.record({
        query: fc.constantFrom(
          DOCUMENTS[0],
          DOCUMENTS[1],
          DOCUMENTS[2],
          DOCUMENTS[7],
          DOCUMENTS[8],
          DOCUMENTS[9],
          DOCUMENTS[10],
        ),
      }),
      fc.record({
        query: fc.constant(DOCUMENTS[3]),
        variables: fc.record({ skip: fc.oneof(fc.boolean(), json) }, { requiredKeys: [] }),
      }),
      fc.record({
        query: fc.constant(DOCUMENTS[4]),
        variables: fc.record({ on: fc.oneof(fc.boolean(), json) }, { requiredKeys: [] }),
      }),
      fc.record({
        query: fc.constant(DOCUMENTS[5]),
        variables: fc.record({ text: fc.oneof(fc.string({ unit: 'binary' }), json) }),
      }),
      fc.record({ query: fc.constant(DOCUMENTS[6]), operationName: fc.constantFrom('A', 'B') }),
    );
    const body = fc.oneof(
      { weight: 3, arbitrary: wellFormed.map((value) => JSON.stringify(value)) },
      { weight: 3, arbitrary: request.map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: fc.string() },
    );
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom(undefined, undefined, ...ACCEPTS),
        fc.constantFrom('application/json', 'application/json', ...CONTENT_TYPES),
        fc.constantFrom(principal, principal, profileOnly),
        async (text, accept, contentType, caller) => {
          const { fast, general } = await both(handler, headersOf(accept, contentType), text, {
            principal: caller,
            challenges,
          });
          if (fast === undefined) return;
          answered += 1;
          expect(fast).toEqual(general);
        },
      ),
      { numRuns: 1000 },
    );
    // Not vacuous: a good share of the generated requests take the fast path.
    expect(answered).toBeGreaterThan(200);
  });
});

describe('fast path over HTTP: the same bytes and headers', () => {
  let system: TestSystem;
  let pat: string;
  let profilePat: string;

  beforeAll(async () => {
    system = await startSystem();
    const user = await makeUser(system, 'Grace Hopper');
    pat = await makePat(system, user);
    ({ token: profilePat } = await createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
      userId: user.id,
      name: 'profile only',
      scopes: ['profile'],
    }));
  });
  afterAll(() => system?.close());

  async function send(body: string, accept?: string, token = pat) {
    const response = await fetch(`${system.apiUrl}/graphql`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(accept === undefined ? {} : { accept }),
      },
      body,
    });
    const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
    return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  it.each([
    ['a query', { query: '{ profile { id name email } }' }, undefined],
    ['a query, graphql-response+json', { query: '{ profile { email name } }' }, 'application/graphql-response+json'],
    [
      'variables',
      { query: 'query ($s: Boolean!) { profile { name email @skip(if: $s) } }', variables: { s: false } },
      undefined,
    ],
    [
      'a variable that fails coercion (GQ-28)',
      { query: 'query ($t: Boolean!) { profile { name @skip(if: $t) } }', variables: { t: 1 } },
      'application/graphql-response+json',
    ],
  ])(
    '%s: the first call (graphql-http, cache miss) and the second (fast path) answer alike',
    async (_name, request, accept) => {
      const body = JSON.stringify(request);
      const first = await send(body, accept);
      const second = await send(body, accept);
      expect(second.status).toBe(first.status);
      expect(second.headers).toEqual(first.headers);
      expect(second.body.equals(first.body)).toBe(true);
      expect(first.headers).toContainEqual(['cache-control', 'no-store']);
      expect(first.headers).toContainEqual(['content-length', String(first.body.length)]);
    },
  );

  it.each([undefined, 'application/graphql-response+json'])(
    'SC-06 a 403 for a missing scope (Accept %s): the first call and the second answer alike',
    async (accept) => {
      const body = JSON.stringify({ query: '{ profile { name email } }' });
      const first = await send(body, accept, profilePat);
      const second = await send(body, accept, profilePat);
      expect(first.status).toBe(403);
      expect(first.headers).toContainEqual(['www-authenticate', insufficientScopeChallenge(system.apiUrl, 'email')]);
      expect(first.headers).toContainEqual(['cache-control', 'no-store']);
      expect(second.status).toBe(first.status);
      expect(second.headers).toEqual(first.headers);
      expect(second.body.equals(first.body)).toBe(true);
    },
  );
});
