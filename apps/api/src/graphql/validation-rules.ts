import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { GraphQLError, NoSchemaIntrospectionCustomRule, specifiedRules, type ValidationContext, type ValidationRule } from './graphql-js.ts';

/** Limits checked before execution (GQ-22, GQ-26). Generous for the one-field schema, tight for abuse. */
export const LIMITS = {
  /** graphql-js stops lexing past this many tokens (GQ-22); GraphiQL's introspection query has about 200. */
  maxTokens: 2000,
  /** GQ-23: deeper is 400, never a 500. */
  maxDepth: 10,
  /** GQ-24: alias bombs and directive floods are 400 (fragment cycles are graphql-js's own rule). */
  maxAliases: 15,
  maxDirectives: 10,
} as const;

/**
 * graphql-armor's default `propagateOnRejection: true` throws from inside the visitor, which
 * graphql-http turns into a 500 with an empty body, where bad input must be a 4xx. Reporting
 * the error through the validation context instead makes it an ordinary validation error: 400.
 * The rules prefix their message with "Syntax Error: ", which it is not; the prefix is dropped.
 */
const armor = {
  propagateOnRejection: false,
  // The standalone rules always pass their ValidationContext; the type allows null for envelop.
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context!.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''))),
  ],
};

export function validationRules(options: { introspection: boolean }): readonly ValidationRule[] {
  return [
    ...specifiedRules,
    maxDepthRule({ n: LIMITS.maxDepth, ...armor }),
    maxAliasesRule({ n: LIMITS.maxAliases, ...armor }),
    maxDirectivesRule({ n: LIMITS.maxDirectives, ...armor }),
    // GQ-25: no `__schema`/`__type` when introspection is off (always so in production); `__typename` still works.
    ...(options.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
}
