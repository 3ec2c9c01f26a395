import { GraphQLObjectType, GraphQLSchema, printSchema } from './graphql-js.ts';
import type { ApiContext } from './api-context.ts';
import { profileField } from './profile/profile.schema.ts';

/** `type Query { profile: Profile! }`: the whole documented API (docs/integrating.md, "The documented interface"). */
export const schema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, ApiContext>({
    name: 'Query',
    fields: { profile: profileField },
  }),
});

/** The same schema as SDL, for the benchmark's Apollo Server peer. */
export const schemaSdl = printSchema(schema);
