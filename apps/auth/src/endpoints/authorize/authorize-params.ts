/**
 * The parameters GET /oauth/authorize reads (DESIGN.md §1, RFC 7636 §4.3). Everything else
 * is ignored (P-01, OAuth 2.1 §4.1.1 "MUST ignore unrecognized request parameters").
 */
export const AUTHORIZE_PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'state',
  'prompt',
  'code_challenge',
  'code_challenge_method',
] as const;
export type AuthorizeParamName = (typeof AUTHORIZE_PARAMS)[number];

export type AuthorizeParams = Partial<Record<AuthorizeParamName, string>>;

export interface AssembledParams {
  params: AuthorizeParams;
  /** Names sent more than once; Express's query parser turns `a=1&a=2` into an array. */
  duplicates: ReadonlySet<AuthorizeParamName>;
}

/**
 * Builds the parameters from an allowlist so an array or object never reaches a check or
 * the database (AZ-04). An empty value counts as absent (OAuth 2.1 §3.1 "parameters sent
 * without a value MUST be treated as if they were omitted"), which also makes `state=` absent (ST-04).
 */
export function assembleAuthorizeParams(query: Record<string, unknown>): AssembledParams {
  const params: AuthorizeParams = {};
  const duplicates = new Set<AuthorizeParamName>();
  for (const name of AUTHORIZE_PARAMS) {
    if (!Object.hasOwn(query, name)) continue;
    const value = query[name];
    if (typeof value === 'string') {
      if (value !== '') params[name] = value;
    } else if (value !== undefined) {
      duplicates.add(name);
    }
  }
  return { params, duplicates };
}
