/**
 * graphql-http 1.23's content negotiation, reproduced for the fast path (fast-path/fast-path.ts) and the
 * coercion-failure answer, which must decide exactly as graphql-http does. Both functions
 * are pure in their header value, so each keeps its answers for the first few distinct values
 * it sees (in practice a handful: what clients send); other values are worked out each time,
 * so a caller varying the header cannot grow the memory.
 */

export const GRAPHQL_RESPONSE = 'application/graphql-response+json';
export const APPLICATION_JSON = 'application/json';
export type ResponseMediaType = typeof GRAPHQL_RESPONSE | typeof APPLICATION_JSON;

/** The Content-Type of a response in each media type, as graphql-http writes it. */
export const RESPONSE_CONTENT_TYPE = {
  [GRAPHQL_RESPONSE]: `${GRAPHQL_RESPONSE}; charset=utf-8`,
  [APPLICATION_JSON]: `${APPLICATION_JSON}; charset=utf-8`,
} as const;

const MEMO_ENTRIES = 64;

function memoized<T>(compute: (value: string) => T): (value: string) => T {
  const known = new Map<string, T>();
  return (value) => {
    let answer = known.get(value);
    if (answer === undefined && !known.has(value)) {
      answer = compute(value);
      if (known.size < MEMO_ENTRIES) known.set(value, answer);
    }
    return answer as T;
  };
}

/** The first acceptable entry of Accept decides (graphql-http ignores q weights); null: 406 (GQ-20). */
const negotiate = memoized((accept: string): ResponseMediaType | null => {
  for (const entry of accept.replace(/\s/g, '').toLowerCase().split(',')) {
    const [type, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) || 'charset=utf-8';
    if (type === GRAPHQL_RESPONSE && charset === 'charset=utf-8') return GRAPHQL_RESPONSE;
    if (
      (type === APPLICATION_JSON || type === 'application/*' || type === '*/*') &&
      (charset === 'charset=utf-8' || charset === 'charset=utf8')
    ) {
      return APPLICATION_JSON;
    }
  }
  return null;
});

export function responseMediaType(accept: string | undefined): ResponseMediaType | null {
  // graphql-http reads a missing or empty Accept as */*.
  return negotiate(accept || '*/*');
}

/**
 * graphql-http's test for a POST body it reads: application/json, in UTF-8 (stated or assumed). Any
 * other is 415, which also keeps out the cross-site "simple" requests a form can send (GQ-18).
 */
export const isJsonBodyType = memoized((contentType: string): boolean => {
  const [type, charset = 'charset=utf-8'] = contentType.replace(/\s/g, '').toLowerCase().split(';');
  return type === APPLICATION_JSON && charset === 'charset=utf-8';
});
