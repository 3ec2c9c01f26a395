import {
  getArgumentValues,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from '../graphql-js.ts';

/**
 * An execution plan for the simplest and commonest kind of operation: a query of plain fields
 * (aliases allowed) on object and leaf types, with no variables, directives, fragments, lists,
 * interfaces, unions or introspection. graphql-js 16 re-collects the fields of such a query
 * and builds its execution context, memo tables and result objects on every call: about 3 µs
 * for `{ profile { name } }`, the largest part of what the API adds to the token check
 * (bench/profile.ts). The plan collects the fields once per document and then only calls
 * the resolvers and the leaf serializers.
 *
 * It executes only that plain case, the way graphql-js does: it walks the fields in graphql-js's order, calls the same
 * resolvers with the same arguments (graphql-js's own `getArgumentValues`, and a resolve info
 * built as graphql-js builds it) and serializes leaves with the types' own `serialize`. The
 * moment anything departs from the plain case (a resolver throws or returns an Error, a null
 * for a non-null field, a serializer that fails or returns null) it gives up and the caller
 * runs graphql-js's `execute`, which then produces the errors exactly as it always does. A
 * query is a read-only fetch (GraphQL spec §2.3), so running its resolvers a second time on
 * that rare path is harmless. A resolver that answers with a promise switches the plan off for
 * good, so such a document goes straight to graphql-js from then on. execution-plan.test.ts
 * compares the plan with graphql-js on generated documents.
 *
 * Why not graphql-jit, the compiler Mercurius uses: it ties with this plan on speed, but a
 * string argument that passes validation runs as code in it (docs/decisions/005-graphql-execution-plan.md,
 * which also states this folder's budget).
 */
export class ExecutionPlan {
  readonly #schema: GraphQLSchema;
  readonly #operation: OperationDefinitionNode;
  readonly #fields: readonly PlannedField[];
  #async = false;

  private constructor(schema: GraphQLSchema, operation: OperationDefinitionNode, fields: readonly PlannedField[]) {
    this.#schema = schema;
    this.#operation = operation;
    this.#fields = fields;
  }

  /** The plan of `operation`, or undefined when it is not of the plain kind above. */
  static of(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
  ): ExecutionPlan | undefined {
    if (operation.operation !== 'query' || operation.variableDefinitions?.length || operation.directives?.length)
      return undefined;
    // Validation leaves no unused fragment, and a plan has no spreads: a document with fragments is not plain.
    if (document.definitions.some((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)) return undefined;
    const queryType = schema.getQueryType();
    if (!queryType) return undefined;
    const fields = planFields(queryType, [operation.selectionSet], undefined);
    return fields && new ExecutionPlan(schema, operation, fields);
  }

  /** The result graphql-js's `execute` would give, or undefined: then run `execute`. */
  run(contextValue: unknown): ExecutionResult | undefined {
    if (this.#async) return undefined;
    // As in graphql-js, per execution: the coerced variables (none) and the fragments (none).
    const run: Run = { plan: this, contextValue, variableValues: {}, fragments: Object.create(null) };
    try {
      return { data: executeFields(run, this.#fields, undefined) };
    } catch (err) {
      if (err !== SWITCH_OFF) return undefined;
      this.#async = true;
      return undefined;
    }
  }

  /** graphql-js's resolve info for one field of this execution. */
  info(run: Run, field: PlannedField): GraphQLResolveInfo {
    return {
      fieldName: field.definition.name,
      fieldNodes: field.fieldNodes,
      returnType: field.definition.type,
      parentType: field.parentType,
      path: field.path,
      schema: this.#schema,
      fragments: run.fragments,
      rootValue: undefined,
      operation: this.#operation,
      variableValues: run.variableValues,
    };
  }
}

interface Run {
  plan: ExecutionPlan;
  contextValue: unknown;
  variableValues: Record<string, unknown>;
  fragments: GraphQLResolveInfo['fragments'];
}

type Path = GraphQLResolveInfo['path'];

interface PlannedField {
  responseKey: string;
  fieldNodes: readonly FieldNode[];
  parentType: GraphQLObjectType;
  definition: GraphQLField<unknown, unknown>;
  /** `__typename`: the parent type's name, as graphql-js's meta field answers. */
  typename: boolean;
  hasArguments: boolean;
  path: Path;
  nonNull: boolean;
  /** Set for a leaf field; otherwise `fields` is. */
  leaf: GraphQLLeafType | undefined;
  fields: readonly PlannedField[] | undefined;
}

/** Thrown when a resolver answers with a promise: this document is left to graphql-js for good. */
const SWITCH_OFF = Symbol('switch the plan off');
/** Thrown on a departure from the plain case: this execution is left to graphql-js (so is any other throw). */
const GIVE_UP = Symbol('give up');

/** graphql-js's field collection, for selection sets of plain fields: grouped by response key, in order. */
function planFields(
  parentType: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  path: Path | undefined,
): PlannedField[] | undefined {
  const byKey = new Map<string, FieldNode[]>();
  for (const selectionSet of selectionSets) {
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.FIELD || selection.directives?.length) return undefined;
      const key = selection.alias?.value ?? selection.name.value;
      // Result objects here are plain objects, where this key would set the prototype.
      if (key === '__proto__') return undefined;
      const nodes = byKey.get(key);
      if (nodes) nodes.push(selection);
      else byKey.set(key, [selection]);
    }
  }
  const planned: PlannedField[] = [];
  for (const [responseKey, fieldNodes] of byKey) {
    const name = fieldNodes[0]!.name.value;
    const fieldPath: Path = { prev: path, key: responseKey, typename: parentType.name };
    if (name === '__typename') {
      planned.push({
        responseKey,
        fieldNodes,
        parentType,
        definition: TYPENAME,
        typename: true,
        hasArguments: false,
        path: fieldPath,
        nonNull: true,
        leaf: undefined,
        fields: undefined,
      });
      continue;
    }
    const definition = parentType.getFields()[name];
    if (name.startsWith('__') || definition === undefined) return undefined;
    const nonNull = isNonNullType(definition.type);
    const type = isNonNullType(definition.type) ? definition.type.ofType : definition.type;
    const field = {
      responseKey,
      fieldNodes,
      parentType,
      definition,
      typename: false,
      hasArguments: definition.args.length > 0,
      path: fieldPath,
      nonNull,
    };
    if (isLeafType(type)) {
      planned.push({ ...field, leaf: type, fields: undefined });
    } else if (isObjectType(type) && !type.isTypeOf) {
      const fields = planFields(
        type,
        fieldNodes.map((node) => node.selectionSet!),
        fieldPath,
      );
      if (!fields) return undefined;
      planned.push({ ...field, leaf: undefined, fields });
    } else {
      return undefined;
    }
  }
  return planned;
}

/** Stands in for graphql-js's TypeNameMetaFieldDef; only its name is read. */
const TYPENAME = { name: '__typename' } as GraphQLField<unknown, unknown>;

function executeFields(run: Run, fields: readonly PlannedField[], source: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    result[field.responseKey] = field.typename
      ? field.parentType.name
      : complete(field, resolve(run, field, source), run);
  }
  return result;
}

/** graphql-js's executeField up to the resolver's answer. */
function resolve(run: Run, field: PlannedField, source: unknown): unknown {
  const { definition } = field;
  // graphql-js computes the arguments before resolving, even for the default resolver.
  const args = field.hasArguments ? getArgumentValues(definition, field.fieldNodes[0]!, run.variableValues) : {};
  let value: unknown;
  if (definition.resolve) {
    value = definition.resolve(source, args, run.contextValue, run.plan.info(run, field));
  } else if ((typeof source === 'object' && source !== null) || typeof source === 'function') {
    // graphql-js's defaultFieldResolver.
    const property = (source as Record<string, unknown>)[definition.name];
    value =
      typeof property === 'function'
        ? (source as Record<string, (...a: unknown[]) => unknown>)[definition.name]!(
            args,
            run.contextValue,
            run.plan.info(run, field),
          )
        : property;
  }
  if (typeof (value as PromiseLike<unknown> | null)?.then === 'function') {
    // The resolver has started; its outcome is graphql-js's to report, on the next run.
    (value as PromiseLike<unknown>).then(undefined, () => {});
    throw SWITCH_OFF;
  }
  return value;
}

/** graphql-js's completeValue for non-null, leaf and object types, giving up where it would report an error. */
function complete(field: PlannedField, value: unknown, run: Run): unknown {
  if (value instanceof Error) throw GIVE_UP;
  if (value == null) {
    if (field.nonNull) throw GIVE_UP;
    return null;
  }
  if (field.leaf) {
    const serialized = field.leaf.serialize(value);
    if (serialized == null) throw GIVE_UP;
    return serialized;
  }
  return executeFields(run, field.fields!, value);
}
