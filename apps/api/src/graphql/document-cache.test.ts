import { describe, expect, it } from 'vitest';
import { DocumentCache } from './document-cache.ts';
import { GraphQLError } from './graphql-js.ts';
import { schema } from './schema.ts';
import { validationRules } from './validation-rules.ts';

function cache(options: Partial<ConstructorParameters<typeof DocumentCache>[0]> = {}) {
  return new DocumentCache({ schema, rules: validationRules({ introspection: false }), maxTokens: 100, maxEntries: 3, maxQueryLength: 200, ...options });
}

describe('DocumentCache', () => {
  it('returns the same parsed document, and the same validation result, for the same text', () => {
    const documents = cache();
    const first = documents.parse('{ profile { name } }');
    expect(documents.parse('{ profile { name } }')).toBe(first);
    const errors = documents.validate(schema, first);
    expect(errors).toEqual([]);
    expect(documents.validate(schema, first)).toBe(errors);
  });

  it('keeps at most maxEntries documents, dropping the least recently used', () => {
    const documents = cache();
    const a = documents.parse('{ a: profile { name } }');
    const b = documents.parse('{ b: profile { name } }');
    documents.parse('{ c: profile { name } }');
    expect(documents.parse('{ a: profile { name } }')).toBe(a); // a is now the most recent
    documents.parse('{ d: profile { name } }'); // evicts b
    expect(documents.size).toBe(3);
    expect(documents.parse('{ a: profile { name } }')).toBe(a);
    expect(documents.parse('{ b: profile { name } }')).not.toBe(b);
  });

  it('never keeps query texts longer than maxQueryLength', () => {
    const documents = cache();
    const long = `{ profile { name } } #${'x'.repeat(300)}`;
    expect(documents.parse(long)).not.toBe(documents.parse(long));
    expect(documents.size).toBe(0);
  });

  it('does not keep documents that fail to parse, and applies the token limit', () => {
    const documents = cache();
    expect(() => documents.parse('{')).toThrow(GraphQLError);
    expect(() => documents.parse(`{ profile { ${'name '.repeat(200)}} }`)).toThrow(/Document contains more tha[nt] 100 tokens/);
    expect(documents.size).toBe(0);
  });

  it('keeps validation errors, rewritten once by mapError', () => {
    let calls = 0;
    const documents = cache({
      mapError: (error) => {
        calls += 1;
        return new GraphQLError(`mapped: ${error.message}`);
      },
    });
    const document = documents.parse('{ nope }');
    expect(documents.validate(schema, document).map((e) => e.message)).toEqual(['mapped: Cannot query field "nope" on type "Query".']);
    documents.validate(schema, document);
    expect(calls).toBe(1);
  });
});
