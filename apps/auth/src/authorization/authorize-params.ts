import { allowlistedParams, type AllowlistedParams } from '../http/allowlisted-params.ts';

/**
 * The parameters GET /oauth/authorize reads (the documented interface (docs/integrating.md), RFC 7636 §4.3,
 * RFC 6749 §3.3 `scope`, OpenID Connect Core §3.1.2.1 `nonce`, `max_age`, `login_hint`, `id_token_hint`,
 * RFC 8707 §2 `resource`).
 * Everything else is ignored (P-01, OAuth 2.1 §4.1.1 "MUST ignore unrecognized request parameters").
 */
export const AUTHORIZE_PARAMS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'state',
  'prompt',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'nonce',
  'max_age',
  'login_hint',
  'id_token_hint',
  'resource',
] as const;
export type AuthorizeParamName = (typeof AUTHORIZE_PARAMS)[number];

export type AssembledParams = AllowlistedParams<AuthorizeParamName>;

/**
 * The request's parameters from the allowlist (AZ-04, P-01); an empty `state=` is absent (ST-04).
 * Each is a string, kept as sent (a malformed percent-encoding included), that the checks only compare,
 * so no character in it can turn a refusal into a 500 (AZ-15).
 */
export function assembleAuthorizeParams(query: Record<string, unknown>): AssembledParams {
  return allowlistedParams(query, AUTHORIZE_PARAMS);
}
