/** Parameters read from an allowlist, and the allowlisted names that came more than once. */
export interface AllowlistedParams<N extends string> {
  params: Partial<Record<N, string>>;
  /** Names sent more than once: Express's query and form parsers turn `a=1&a=2` into an array. */
  duplicates: ReadonlySet<N>;
}

/**
 * Builds a protocol endpoint's parameters from an allowlist, so an array or object never
 * reaches a check or the database (AZ-04), and everything else is ignored (P-01, AZ-18). An empty
 * value counts as absent (OAuth 2.1 §3.1 "parameters sent without a value MUST be treated as
 * if they were omitted"). Used by /oauth/authorize and /oauth/logout.
 */
export function allowlistedParams<N extends string>(source: unknown, names: readonly N[]): AllowlistedParams<N> {
  const input = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const params: Partial<Record<N, string>> = {};
  const duplicates = new Set<N>();
  for (const name of names) {
    if (!Object.hasOwn(input, name)) continue;
    const value = input[name];
    if (typeof value === 'string') {
      if (value !== '') params[name] = value;
    } else if (value !== undefined) {
      duplicates.add(name);
    }
  }
  return { params, duplicates };
}
