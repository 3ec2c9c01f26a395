import { describe, expect, it } from 'vitest';
import { requiredScopes, requiresScope } from './field-scopes.ts';
import {
  getOperationAST,
  GraphQLInterfaceType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type GraphQLSchema as Schema,
} from './graphql-js.ts';
import { schema } from './schema.ts';

function scopesOf(query: string, on: Schema = schema, operationName?: string) {
  const document = parse(query);
  return requiredScopes(on, document, getOperationAST(document, operationName)!);
}

describe('SC-06 the scopes a document needs, worked out once per document', () => {
  it.each([
    ['{ profile { name } }', ['profile']],
    ['{ profile { id } }', ['profile']],
    ['{ profile { email } }', ['email']],
    ['{ profile { email id } }', ['profile', 'email']],
    ['{ profile { __typename } }', []],
    ['{ __typename }', []],
    ['{ __schema { queryType { name } } }', []],
    ['{ __type(name: "Profile") { fields { name } } }', []],
    ['{ profile { ...P } } fragment P on Profile { email }', ['email']],
    ['{ profile { ... on Profile { email } } }', ['email']],
    ['{ profile { ... { name } } }', ['profile']],
    ['{ ...Q } fragment Q on Query { profile { ...P } } fragment P on Profile { email ...P2 } fragment P2 on Profile { id }', ['profile', 'email']],
    ['query ($s: Boolean!) { profile { name email @skip(if: $s) } }', ['profile', 'email']],
  ])('%s needs %j', (query, scopes) => {
    expect(scopesOf(query)).toEqual(scopes);
  });

  it('only the operation picked counts', () => {
    const query = 'query A { profile { email } } query B { profile { name } }';
    expect(scopesOf(query, schema, 'A')).toEqual(['email']);
    expect(scopesOf(query, schema, 'B')).toEqual(['profile']);
  });

  it('on an interface, a guard on an implementation counts too', () => {
    const Contact = new GraphQLInterfaceType({ name: 'Contact', fields: { address: { type: GraphQLString } } });
    const Mail = new GraphQLObjectType({
      name: 'Mail',
      interfaces: [Contact],
      fields: { address: { type: GraphQLString, extensions: requiresScope('email') } },
    });
    const withInterface = new GraphQLSchema({
      types: [Mail],
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { contact: { type: new GraphQLNonNull(Contact), extensions: requiresScope('profile') } },
      }),
    });
    expect(scopesOf('{ contact { address } }', withInterface)).toEqual(['profile', 'email']);
    expect(scopesOf('{ contact { __typename } }', withInterface)).toEqual(['profile']);
  });
});
