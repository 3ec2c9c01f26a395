import { z } from 'zod';

/**
 * Parameters the token endpoint reads (RFC 6749 §4.1.3, §6; RFC 7636 §4.5); anything else is
 * ignored (P-01). `scope` narrows a refresh (SC-04, which replaces RT-10's "ignored"); the code
 * grant ignores it (RFC 6749 §4.1.3 defines none: the code carries its scopes), but a repeated
 * one is refused on both (P-02). `resource` (RFC 8707 §2.2) names the resource server of the code
 * or grant again (RS-04, RS-05); a repeated one is `invalid_target` (RS-02, oauth-params.ts).
 * `device_code` is the device grant's (RFC 8628 §3.4, DV-05).
 */
export const TOKEN_PARAMS = [
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'refresh_token',
  'device_code',
  'scope',
  'resource',
  'client_id',
  'client_secret',
] as const;

export const GrantType = {
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  /** RFC 8628 §3.4 (DV-*): a device polling with its device code. */
  deviceCode: 'urn:ietf:params:oauth:grant-type:device_code',
} as const;

/** RFC 6749 §4.1.3. Whether `redirect_uri` is required is core's rule (it always is here). */
export const authorizationCodeParams = z.object({
  code: z.string(), // TK-AC-01: a missing code is invalid_request
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  resource: z.string().optional(), // RS-04: the code's resource server, if given
});

/** RFC 6749 §6. */
export const refreshTokenParams = z.object({
  refresh_token: z.string(), // TK-RF-01: a missing refresh_token is invalid_request
  scope: z.string().optional(), // SC-04: a subset of the grant's scopes; omitted, the grant's own
  resource: z.string().optional(), // RS-05: the grant's resource server, if given
});

/** RFC 8628 §3.4: the device code from POST /oauth/device_authorization. */
export const deviceCodeParams = z.object({
  device_code: z.string(), // DV-05: a missing device_code is invalid_request
});
