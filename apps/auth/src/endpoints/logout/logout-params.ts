import { allowlistedParams, type AllowlistedParams } from '../../http/allowlisted-params.ts';

/**
 * The parameters GET and POST /oauth/logout read (OpenID RP-Initiated Logout 1.0 §2), among
 * them `id_token_hint` (OI-18, checked by check-id-token-hint.ts); like the others it may come
 * only once. Others (logout_hint, ui_locales) are ignored.
 */
export const LOGOUT_PARAMS = ['client_id', 'id_token_hint', 'post_logout_redirect_uri', 'state'] as const;
export type LogoutParamName = (typeof LOGOUT_PARAMS)[number];
export type LogoutParams = AllowlistedParams<LogoutParamName>;

export function assembleLogoutParams(source: unknown): LogoutParams {
  return allowlistedParams(source, LOGOUT_PARAMS);
}
