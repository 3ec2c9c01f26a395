import {
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type Source,
  type ValidationRule,
} from './graphql-js.ts';

export interface DocumentCacheOptions {
  schema: GraphQLSchema;
  rules: readonly ValidationRule[];
  maxTokens: number;
  /** How many distinct documents are kept. */
  maxEntries: number;
  /** Longer query strings are parsed every time and never kept, so the cache holds at most maxEntries × this. */
  maxQueryLength: number;
  /** Rewrites each validation error once, before it is cached (production hides "Did you mean"). */
  mapError?: (error: GraphQLError) => GraphQLError;
}

export interface ValidatedDocument {
  readonly document: DocumentNode;
  /** Empty when the document is valid. */
  readonly errors: readonly GraphQLError[];
}

/**
 * Parsed and validated documents by query text, the step that dominates a small query's cost
 * in graphql-js. Bounded in entries and in key length, least recently used first out. Only
 * documents that parse are kept; their validation result (errors included) is kept with them,
 * since schema and rules never change while the app runs.
 */
export class DocumentCache {
  readonly #options: DocumentCacheOptions;
  readonly #documents = new Map<string, DocumentNode>();
  /** Validation results, by document: kept ones and, while they live, those too long to keep. */
  readonly #validated = new WeakMap<DocumentNode, ValidatedDocument>();
  /** The text last marked most recently used: another hit on it needs no re-insertion. */
  #mostRecent: string | undefined;

  constructor(options: DocumentCacheOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#documents.size;
  }

  /** graphql-http's `parse` hook. Throws graphql's syntax GraphQLError (400) as `parse` does. */
  parse = (source: string | Source): DocumentNode => {
    if (typeof source !== 'string') return parse(source, { maxTokens: this.#options.maxTokens });
    const cached = this.#documents.get(source);
    if (cached !== undefined) {
      this.#markUsed(source, cached);
      return cached;
    }
    const document = parse(source, { maxTokens: this.#options.maxTokens });
    if (source.length <= this.#options.maxQueryLength) {
      if (this.#documents.size >= this.#options.maxEntries) {
        this.#documents.delete(this.#documents.keys().next().value!);
      }
      this.#documents.set(source, document);
      this.#mostRecent = source;
    }
    return document;
  };

  /** graphql-http's `validate` hook: the schema and rules are the cache's own, fixed at construction. */
  validate = (_schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] => {
    let validated = this.#validated.get(document);
    if (validated === undefined) {
      let errors = validate(this.#options.schema, document, this.#options.rules);
      if (this.#options.mapError) errors = errors.map(this.#options.mapError);
      validated = { document, errors };
      this.#validated.set(document, validated);
    }
    return validated.errors;
  };

  /**
   * The fast path's lookup (fast-path/fast-path.ts): the document kept for this text with its validation
   * result, or undefined when the text was never parsed and validated through the hooks above
   * (graphql-http's route then does it, which fills the cache) or was evicted since.
   */
  lookup(source: string): ValidatedDocument | undefined {
    const document = this.#documents.get(source);
    if (document === undefined) return undefined;
    const validated = this.#validated.get(document);
    if (validated !== undefined) this.#markUsed(source, document);
    return validated;
  }

  /** Map keeps insertion order: re-inserting a text makes it the last one evicted. */
  #markUsed(source: string, document: DocumentNode): void {
    if (source === this.#mostRecent) return;
    this.#documents.delete(source);
    this.#documents.set(source, document);
    this.#mostRecent = source;
  }
}
