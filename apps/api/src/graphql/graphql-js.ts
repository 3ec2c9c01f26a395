/**
 * Every runtime import of graphql-js in this app goes through this file, by the package's
 * CommonJS entry. graphql 16 has no "exports" map: Node resolves `graphql` to index.js (which
 * graphql-http and the graphql-armor rules also load), but Vite, and so Vitest, prefers the
 * "module" field, index.mjs. Two copies of graphql in one process fail with "Cannot use
 * GraphQLSchema from another module or realm". Naming the file keeps one copy everywhere.
 */
export {
  execute,
  executeSync,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  getArgumentValues,
  getNamedType,
  getOperationAST,
  GraphQLError,
  GraphQLID,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  getIntrospectionQuery,
  isInterfaceType,
  isLeafType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  printSchema,
  specifiedRules,
  validate,
} from 'graphql/index.js';
export type {
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLField,
  GraphQLFieldConfig,
  GraphQLLeafType,
  GraphQLNamedType,
  GraphQLResolveInfo,
  OperationDefinitionNode,
  SelectionSetNode,
  Source,
  ValidationContext,
  ValidationRule,
} from 'graphql/index.js';
