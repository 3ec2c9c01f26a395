import { sortScopes, type Scope } from '@latchkey/contracts';
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from './graphql-js.ts';

/**
 * Guards a field with a scope (SC-06), one line on its config: `extensions: requiresScope('email')`.
 * A field without it needs no scope; so do `__typename` and introspection (`__schema`, `__type`).
 */
export function requiresScope(scope: Scope): { scope: Scope } {
  return { scope };
}

function scopeOf(field: GraphQLField<unknown, unknown>): Scope | undefined {
  return field.extensions['scope'] as Scope | undefined;
}

/**
 * The scopes an operation needs, in registry order: the guard of every field it selects, through
 * fragments and inline fragments. A field under `@skip` or `@include` counts whatever the
 * variables say, so the answer depends on the document alone and is worked out once per cached
 * document (createRequiredScopes).
 */
export function requiredScopes(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): Scope[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const needed = new Set<Scope>();
  // A fragment's fields are looked up on its type condition, so one walk of each is enough.
  const walked = new Set<string>();
  const walk = (type: GraphQLNamedType | null | undefined, selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        const definitions = fieldsNamed(schema, type, selection.name.value);
        for (const definition of definitions) {
          const scope = scopeOf(definition);
          if (scope !== undefined) needed.add(scope);
        }
        if (selection.selectionSet && definitions[0]) walk(getNamedType(definitions[0].type), selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type, selection.selectionSet);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment === undefined || walked.has(fragment.name.value)) continue;
        walked.add(fragment.name.value);
        walk(schema.getType(fragment.typeCondition.name.value), fragment.selectionSet);
      }
    }
  };
  walk(schema.getRootType(operation.operation), operation.selectionSet);
  return sortScopes(needed);
}

/** The field's definitions: on an interface, each implementation's too, since that one runs. */
function fieldsNamed(
  schema: GraphQLSchema,
  type: GraphQLNamedType | null | undefined,
  name: string,
): GraphQLField<unknown, unknown>[] {
  if (!isObjectType(type) && !isInterfaceType(type)) return [];
  const types = isInterfaceType(type) ? [type, ...schema.getPossibleTypes(type)] : [type];
  return types.flatMap((each) => each.getFields()[name] ?? []);
}

/**
 * requiredScopes, kept by operation: documents come from the document cache, so a cached
 * document's operations are the same objects on every request.
 */
export function createRequiredScopes(
  schema: GraphQLSchema,
): (document: DocumentNode, operation: OperationDefinitionNode) => readonly Scope[] {
  const known = new WeakMap<OperationDefinitionNode, readonly Scope[]>();
  return (document, operation) => {
    let scopes = known.get(operation);
    if (scopes === undefined) {
      scopes = requiredScopes(schema, document, operation);
      known.set(operation, scopes);
    }
    return scopes;
  };
}
