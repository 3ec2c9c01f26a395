import type {
  AbortableQueryOptions,
  Compilable,
  CompiledQuery,
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryExecutor,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { NO_CHILD_SPAN, type ChildSpan, type Tracing } from './tracing.ts';

/** `db.system.name` (OpenTelemetry semantic conventions). */
export type DatabaseSystem = 'sqlite' | 'postgresql';

export const ATTR_DB_SYSTEM_NAME = 'db.system.name';
export const ATTR_DB_OPERATION_NAME = 'db.operation.name';
export const ATTR_DB_QUERY_TEXT = 'db.query.text';

const OPERATIONS: Partial<Record<RootOperationNode['kind'], string>> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  MergeQueryNode: 'merge',
};

/** Far longer than any query of ours; a runaway `in (...)` list is cut. */
const MAX_QUERY_TEXT = 4096;

/** A raw `sql` query's (or DDL's) operation: its first keyword. */
function firstKeyword(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toLowerCase() ?? 'query';
}

/**
 * OB-16: a child span `db <operation>` for each query built with Kysely, with the compiled SQL
 * text: its placeholders (`?`, `$1`), never the parameter values, which include token digests
 * and emails (OB-14). Keyed by Kysely's query id between transformQuery and transformResult.
 * Kysely calls transformResult only for a query that succeeded: a failed query leaves no span
 * (its request's span carries the error).
 */
class QueryTracingPlugin implements KyselyPlugin {
  readonly #spans = new WeakMap<QueryId, ChildSpan>();
  readonly #executor: QueryExecutor;
  readonly #tracing: Tracing;
  readonly #system: DatabaseSystem;

  constructor(executor: QueryExecutor, tracing: Tracing, system: DatabaseSystem) {
    this.#executor = executor;
    this.#tracing = tracing;
    this.#system = system;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    // Compiled once more, only inside a traced request: the text with its placeholders, not the values.
    const span = startQuerySpan(
      this.#tracing,
      this.#system,
      OPERATIONS[node.kind],
      () => this.#executor.compileQuery(node, queryId).sql,
    );
    if (span !== NO_CHILD_SPAN) this.#spans.set(queryId, span);
    return node;
  }

  transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const span = this.#spans.get(queryId);
    if (span !== undefined) {
      this.#spans.delete(queryId);
      span.end();
    }
    return Promise.resolve(result);
  }
}

/** The span of one query: `db <operation>`, its engine, operation and SQL text with placeholders. */
function startQuerySpan(
  tracing: Tracing,
  system: DatabaseSystem,
  operation: string | undefined,
  sql: () => string,
): ChildSpan {
  const span = tracing.startSpan(`db ${operation ?? 'query'}`, 'client', { [ATTR_DB_SYSTEM_NAME]: system });
  if (span === NO_CHILD_SPAN) return span;
  const text = sql();
  const name = operation ?? firstKeyword(text);
  if (operation === undefined) span.rename(`db ${name}`);
  span.set(ATTR_DB_OPERATION_NAME, name);
  span.set(ATTR_DB_QUERY_TEXT, text.slice(0, MAX_QUERY_TEXT));
  return span;
}

/**
 * `db` with a span per query while tracing is on (OB-16); `db` itself when it is off, so an
 * untraced server runs no plugin at all. Queries built with Kysely are seen by the plugin; a
 * CompiledQuery run with `db.executeQuery` (the token lookup's cached SQL, tokens.repository.ts)
 * skips plugins' transformQuery, so this instance's executeQuery traces those itself.
 */
export function traceQueries<DB>(db: Kysely<DB>, tracing: Tracing, system: DatabaseSystem): Kysely<DB> {
  if (!tracing.enabled) return db;
  const traced = db.withPlugin(new QueryTracingPlugin(db.getExecutor(), tracing, system));
  const execute = traced.executeQuery.bind(traced);
  traced.executeQuery = async function executeQuery<R>(
    query: CompiledQuery<R> | Compilable<R>,
    options?: AbortableQueryOptions,
  ): Promise<QueryResult<R>> {
    if (typeof (query as Partial<Compilable<R>>).compile === 'function') return execute(query, options);
    const span = startQuerySpan(tracing, system, undefined, () => (query as CompiledQuery<R>).sql);
    try {
      const result = await execute(query, options);
      span.end();
      return result;
    } catch (err) {
      span.end(err);
      throw err;
    }
  };
  return traced;
}
