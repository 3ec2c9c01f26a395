import { allowlistedParams, type AllowlistedParams } from '../../http/allowlisted-params.ts';

/**
 * The parameters GET and POST /oauth/logout read (OpenID RP-Initiated Logout 1.0 §2). Others
 * (id_token_hint: ID tokens are issued, but reading the hint is a later slice of OpenID Connect;
 * logout_hint, ui_locales) are ignored.
 */
export const LOGOUT_PARAMS = ['client_id', 'post_logout_redirect_uri', 'state'] as const;
export type LogoutParamName = (typeof LOGOUT_PARAMS)[number];
export type LogoutParams = AllowlistedParams<LogoutParamName>;

export function assembleLogoutParams(source: unknown): LogoutParams {
  return allowlistedParams(source, LOGOUT_PARAMS);
}
