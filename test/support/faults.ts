// Makes the next queries that touch a table fail with a chosen error, through the servers' own
// database handle (a Kysely plugin), so a test can see how each surface answers a bug (a
// TypeError) or an outage (a refused connection) thrown from below a real service call.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

interface Fault {
  table: string;
  error: () => Error;
}

export class FaultInjector implements KyselyPlugin {
  #faults: Fault[] = [];
  #everyQuery: (() => Error) | undefined;

  /** Every query naming `table` fails with a fresh `error()` until `clear()`. */
  failQueriesOn(table: string, error: () => Error): void {
    this.#faults.push({ table, error });
  }

  /**
   * Every query fails with a fresh `error()` once it has run, until `clear()`: also the
   * precompiled ones (the API's token lookup) that never pass through `transformQuery`.
   */
  failEveryQuery(error: () => Error): void {
    this.#everyQuery = error;
  }

  clear(): void {
    this.#faults = [];
    this.#everyQuery = undefined;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.#faults.length > 0) {
      const text = JSON.stringify(args.node);
      const fault = this.#faults.find((f) => text.includes(`"name":"${f.table}"`));
      if (fault) throw fault.error();
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#everyQuery) return Promise.reject(this.#everyQuery());
    return Promise.resolve(args.result);
  }
}

/** A bug: what a wrong assumption in code looks like. */
export function aBug(): Error {
  return new TypeError("Cannot read properties of undefined (reading 'id')");
}

/** An outage: what the PostgreSQL driver throws when the server refuses connections. */
export function anOutage(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
}
