/**
 * The parameters GET and POST /oauth/logout read (OpenID RP-Initiated Logout 1.0 §2). Others
 * (id_token_hint: no ID tokens are issued yet; logout_hint, ui_locales) are ignored.
 */
export const LOGOUT_PARAMS = ['client_id', 'post_logout_redirect_uri', 'state'] as const;
export type LogoutParamName = (typeof LOGOUT_PARAMS)[number];

export interface LogoutParams {
  params: Partial<Record<LogoutParamName, string>>;
  /** Names sent more than once (an array from the query or form parser). */
  duplicates: ReadonlySet<LogoutParamName>;
}

/** From an allowlist, so an array or object never reaches a check; an empty value is absent. */
export function assembleLogoutParams(source: unknown): LogoutParams {
  const input = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const params: LogoutParams['params'] = {};
  const duplicates = new Set<LogoutParamName>();
  for (const name of LOGOUT_PARAMS) {
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
