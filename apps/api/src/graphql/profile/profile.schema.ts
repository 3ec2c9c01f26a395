import { GraphQLID, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfig } from '../graphql-js.ts';
import type { Principal } from '@latchkey/core';
import type { ApiContext } from '../api-context.ts';
import { requiresScope } from '../field-scopes.ts';

export interface Profile {
  id: string;
  name: string;
  email: string;
}

/** The token's user. The token check already read name and email, so no second query. */
export function profileOf(principal: Principal): Profile {
  return { id: principal.userId, name: principal.userName, email: principal.userEmail };
}

export const ProfileType = new GraphQLObjectType<Profile, ApiContext>({
  name: 'Profile',
  description: 'The user the access token or personal access token belongs to.',
  fields: {
    // SC-06: each field's scope; `profile` itself needs none, so `{ profile { __typename } }` works with any token.
    id: { type: new GraphQLNonNull(GraphQLID), extensions: requiresScope('profile') },
    name: { type: new GraphQLNonNull(GraphQLString), extensions: requiresScope('profile') },
    email: { type: new GraphQLNonNull(GraphQLString), extensions: requiresScope('email') },
  },
});

export const profileField: GraphQLFieldConfig<unknown, ApiContext> = {
  type: new GraphQLNonNull(ProfileType),
  resolve: (_root, _args, context) => profileOf(context.principal),
};
