import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExecutionPlan } from './execution-plan.ts';
import {
  executeSync,
  getOperationAST,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  parse,
  specifiedRules,
  validate,
  type GraphQLResolveInfo,
} from '../graphql-js.ts';

// The plan must give graphql-js's result, call the same resolvers in the same order with the
// same arguments and resolve info, or give up before answering (execution-plan.ts).

interface TestContext {
  calls: string[];
}

/** Records what graphql-js passes a resolver, to compare with what the plan passes. */
function record(context: TestContext, args: unknown, info: GraphQLResolveInfo): void {
  const path: (string | number)[] = [];
  for (let p: GraphQLResolveInfo['path'] | undefined = info.path; p; p = p.prev) path.unshift(`${p.key}@${p.typename}`);
  context.calls.push(
    JSON.stringify({
      field: info.fieldName,
      args,
      path,
      parent: info.parentType.name,
      returns: String(info.returnType),
      nodes: info.fieldNodes.length,
      variables: info.variableValues,
      fragments: Object.keys(info.fragments),
      root: info.rootValue ?? null,
      operation: info.operation.name?.value ?? null,
      schema: info.schema === schema,
    }),
  );
}

const Color = new GraphQLEnumType({ name: 'Color', values: { RED: { value: 'r' }, BLUE: { value: 'b' } } });
const Picky = new GraphQLScalarType({
  name: 'Picky',
  serialize: (value) => (value === 'bad' ? null : `picky:${String(value)}`),
});
const Named = new GraphQLInterfaceType({ name: 'Named', fields: { name: { type: GraphQLString } } });

interface Item {
  id: string | number;
  name: string | null;
  color: string;
  greet: (args: unknown, context: TestContext, info: GraphQLResolveInfo) => string;
  next?: Item | null;
}

const item = (id: number, name: string | null): Item => ({
  id,
  name,
  color: id % 2 === 0 ? 'r' : 'b',
  greet(args, context, info) {
    record(context, args, info);
    return `hello ${String(this.name)}`;
  },
});

const Thing: GraphQLObjectType = new GraphQLObjectType<Item, TestContext>({
  name: 'Thing',
  interfaces: [Named],
  fields: () => ({
    id: { type: new GraphQLNonNull(GraphQLID) },
    name: { type: GraphQLString },
    color: { type: Color },
    greet: { type: GraphQLString },
    next: {
      type: Thing,
      resolve: (source, args, context, info) => {
        record(context, args, info);
        return source.next === undefined ? item(Number(source.id) + 1, `after ${String(source.id)}`) : source.next;
      },
    },
    strictName: { type: new GraphQLNonNull(GraphQLString), resolve: (source) => source.name },
    size: {
      type: GraphQLInt,
      args: { times: { type: GraphQLInt, defaultValue: 2 } },
      resolve: (source, args: { times: number }) => Number(source.id) * args.times,
    },
  }),
});

const Typed = new GraphQLObjectType({ name: 'Typed', isTypeOf: () => true, fields: { name: { type: GraphQLString } } });

const resolveWith =
  <T>(value: (args: any) => T) =>
  (_source: unknown, args: unknown, context: TestContext, info: GraphQLResolveInfo) => {
    record(context, args, info);
    return value(args);
  };

const schema = new GraphQLSchema({
  types: [Thing],
  query: new GraphQLObjectType<unknown, TestContext>({
    name: 'Query',
    fields: {
      text: { type: GraphQLString, resolve: resolveWith(() => 'plain "text" </script> \u2028 😀') },
      count: { type: new GraphQLNonNull(GraphQLInt), resolve: resolveWith(() => '42') },
      ratio: { type: GraphQLFloat, resolve: resolveWith(() => 0.5) },
      flag: { type: GraphQLBoolean, resolve: resolveWith(() => true) },
      thing: { type: Thing, resolve: resolveWith(() => item(1, 'one')) },
      mustThing: { type: new GraphQLNonNull(Thing), resolve: resolveWith(() => item(2, null)) },
      noThing: { type: Thing, resolve: resolveWith(() => null) },
      echo: {
        type: GraphQLString,
        args: { text: { type: GraphQLString }, n: { type: GraphQLInt, defaultValue: 1 } },
        resolve: resolveWith((args: { text?: string; n: number }) => `${args.text ?? ''}×${args.n}`),
      },
      picky: { type: Picky, resolve: resolveWith(() => 'fine') },
      pickyBad: { type: Picky, resolve: resolveWith(() => 'bad') },
      broken: {
        type: GraphQLString,
        resolve: (_source, args, context, info) => {
          record(context, args, info);
          throw new Error('boom');
        },
      },
      errorValue: { type: GraphQLString, resolve: resolveWith(() => new Error('as a value')) },
      errorThing: {
        type: Thing,
        resolve: resolveWith(() => Object.assign(new Error('as a value'), { id: 1, name: 'n' })),
      },
      missing: { type: new GraphQLNonNull(GraphQLString), resolve: resolveWith(() => undefined) },
      badInt: { type: GraphQLInt, resolve: resolveWith(() => 'not a number') },
      later: { type: GraphQLString, resolve: resolveWith(() => Promise.resolve('later')) },
      list: { type: new GraphQLList(GraphQLString), resolve: resolveWith(() => ['a']) },
      named: { type: Named, resolve: resolveWith(() => item(3, 'three')) },
      typed: { type: Typed, resolve: resolveWith(() => ({ name: 'typed' })) },
    },
  }),
});
Named.resolveType = () => 'Thing';

/** graphql-js's answer and the calls it made, then the plan's (undefined: not planned or given up). */
function both(query: string) {
  const document = parse(query);
  const operation = getOperationAST(document)!;
  const expectedContext: TestContext = { calls: [] };
  const expected = executeSync({ schema, document, contextValue: expectedContext });
  const plan = ExecutionPlan.of(schema, document, operation);
  const context: TestContext = { calls: [] };
  const actual = plan?.run(context);
  return { planned: plan !== undefined, expected, expectedCalls: expectedContext.calls, actual, calls: context.calls };
}

describe('ExecutionPlan', () => {
  it.each([
    '{ text count ratio flag }',
    '{ thing { id name color greet } }',
    '{ a: thing { id } b: thing { name } a: thing { color } }',
    '{ thing { next { next { id name } } __typename } __typename }',
    '{ mustThing { id name greet } }',
    '{ noThing { id } }',
    '{ echo e2: echo(text: "x") e3: echo(text: "y", n: 3) }',
    '{ thing { size s3: size(times: 3) } }',
    '{ picky }',
    'query Named { constructor: text toString: count }',
  ])('runs %s as graphql-js does', (query) => {
    const { planned, expected, expectedCalls, actual, calls } = both(query);
    expect(planned).toBe(true);
    expect(actual).toBeDefined();
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    expect(calls).toEqual(expectedCalls);
    expect(expected.errors).toBeUndefined();
  });

  it.each([
    ['a variable', 'query ($t: String) { echo(text: $t) }'],
    ['a directive', '{ text @include(if: true) }'],
    ['a fragment', '{ thing { ...F } } fragment F on Thing { id }'],
    ['an inline fragment', '{ thing { ... on Thing { id } } }'],
    ['a list', '{ list }'],
    ['an interface', '{ named { name } }'],
    ['a type with isTypeOf', '{ typed { name } }'],
    ['introspection', '{ __schema { queryType { name } } }'],
    ['an alias named __proto__', '{ __proto__: text }'],
  ])('does not plan a query with %s', (_name, query) => {
    expect(validate(schema, parse(query), specifiedRules)).toEqual([]);
    expect(both(query).planned).toBe(false);
  });

  it.each([
    ['a resolver throws', '{ text broken }'],
    ['a resolver returns an Error', '{ errorValue }'],
    ['a resolver returns an Error for an object', '{ errorThing { id name } }'],
    ['null for a non-null field', '{ text missing }'],
    ['null from a non-null object field', '{ mustThing { strictName } }'],
    ['a serializer fails', '{ badInt }'],
    ['a serializer returns null', '{ pickyBad }'],
  ])('gives up when %s, where graphql-js reports an error', (_name, query) => {
    const { planned, expected, actual } = both(query);
    expect(planned).toBe(true);
    expect(actual).toBeUndefined();
    expect(expected.errors?.length).toBeGreaterThan(0);
  });

  it('turns no part of a query into code: a string argument crafted against graphql-jit is data (decision 005)', () => {
    // graphql-jit 0.8.9 writes argument literals into generated JavaScript and turns this
    // marker into `new Date(…)` unescaped, so the rest of the string runs in the server.
    const payload = '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d0), [globalThis.latchkeyInjected = 1]: (0';
    const query = `{ echo(text: ${JSON.stringify(payload)}) }`;
    expect(validate(schema, parse(query), specifiedRules)).toEqual([]);
    const { planned, expected, actual } = both(query);
    expect(planned).toBe(true);
    expect(actual).toEqual(expected);
    expect(actual?.data).toEqual({ echo: `${payload}×1` });
    expect((globalThis as { latchkeyInjected?: unknown }).latchkeyInjected).toBeUndefined();
  });

  it('an async resolver switches the plan off for good, after its one call', async () => {
    const document = parse('{ text later }');
    const plan = ExecutionPlan.of(schema, document, getOperationAST(document)!)!;
    const context: TestContext = { calls: [] };
    expect(plan.run(context)).toBeUndefined();
    expect(context.calls).toHaveLength(2);
    expect(plan.run(context)).toBeUndefined();
    expect(context.calls).toHaveLength(2);
  });

  it('property: on generated queries, the same result and calls as graphql-js, or none', () => {
    const aliases = fc.constantFrom(undefined, undefined, 'a', 'b', 'dup', 'constructor');
    const thingField = fc.constantFrom(
      'id',
      'name',
      'color',
      'greet',
      'strictName',
      '__typename',
      'size',
      'size(times: 5)',
    );
    const thingSelection: fc.Arbitrary<string> = fc.letrec<{ selection: string }>((tie) => ({
      selection: fc
        .array(
          fc.oneof(
            {
              weight: 4,
              arbitrary: fc.tuple(aliases, thingField).map(([alias, field]) => `${alias ? `${alias}: ` : ''}${field}`),
            },
            {
              weight: 1,
              arbitrary: fc
                .tuple(aliases, tie('selection'))
                .map(([alias, inner]) => `${alias ? `${alias}: ` : ''}next ${inner}`),
            },
          ),
          { minLength: 1, maxLength: 4 },
        )
        .map((fields) => `{ ${fields.join(' ')} }`),
    })).selection;
    const rootField = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'text',
          'count',
          'ratio',
          'flag',
          'picky',
          'echo',
          'echo(text: "q", n: 7)',
          '__typename',
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom('broken', 'errorValue', 'missing', 'badInt', 'pickyBad') },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom('thing', 'mustThing', 'noThing'), thingSelection)
          .map(([field, inner]) => `${field} ${inner}`),
      },
    );
    const query = fc
      .array(fc.tuple(aliases, rootField), { minLength: 1, maxLength: 5 })
      .map((fields) => `{ ${fields.map(([alias, field]) => `${alias ? `${alias}: ` : ''}${field}`).join(' ')} }`);
    let ran = 0;
    fc.assert(
      fc.property(query, (text) => {
        // Only valid documents reach execution (an alias used for two different fields is not).
        if (validate(schema, parse(text), specifiedRules).length > 0) return;
        const { planned, expected, expectedCalls, actual, calls } = both(text);
        expect(planned).toBe(true);
        if (actual === undefined) {
          expect(expected.errors?.length).toBeGreaterThan(0);
          return;
        }
        ran += 1;
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        expect(calls).toEqual(expectedCalls);
      }),
      { numRuns: 1000 },
    );
    expect(ran).toBeGreaterThan(200);
  });
});
