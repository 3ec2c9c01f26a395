import { PageError } from '../http/page-error.ts';

/** RFC 6749 §4.1.2.1 error codes this endpoint sends to a validated redirect URI. */
export const AuthorizationErrorCode = {
  invalidRequest: 'invalid_request',
  unsupportedResponseType: 'unsupported_response_type',
  accessDenied: 'access_denied',
  invalidScope: 'invalid_scope',
  /** RS-01, RS-02 (RFC 8707 §2): `resource` is malformed, unknown, or repeated. */
  invalidTarget: 'invalid_target',
  temporarilyUnavailable: 'temporarily_unavailable',
  /** OI-16 (OpenID Connect Core §3.1.2.6): prompt=none and the user must sign in. */
  loginRequired: 'login_required',
  /** OI-16: prompt=none and the user must approve the request. */
  consentRequired: 'consent_required',
} as const;
export type AuthorizationErrorCode = (typeof AuthorizationErrorCode)[keyof typeof AuthorizationErrorCode];

/**
 * An error of an authorization request whose client and redirect URI are already verified;
 * the router sends it to that redirect URI (RU-10). `description` must be ASCII without `"`
 * or `\` and never echo input (AC-10).
 */
export class AuthorizationError extends Error {
  readonly code: AuthorizationErrorCode;
  readonly description: string;
  constructor(code: AuthorizationErrorCode, description: string) {
    super(description);
    this.name = 'AuthorizationError';
    this.code = code;
    this.description = description;
  }
}

export function invalidRequest(description: string): AuthorizationError {
  return new AuthorizationError(AuthorizationErrorCode.invalidRequest, description);
}

/**
 * The client or the redirect URI cannot be trusted, so nothing may be redirected anywhere
 * (RFC 6749 §4.1.2.1, OAuth 2.1 §4.1.2.1 "MUST NOT automatically redirect"): a 400 page that
 * says what is wrong (RU-11). Input is never echoed.
 */
export class InvalidAuthorizationRequest extends PageError {
  constructor(detail: string) {
    super(400, 'This sign-in link is not valid', detail, {
      advice:
        'Latchkey could not send you back to the application safely, so it stopped here. If you followed a link from an application, tell its developer.',
    });
    this.name = 'InvalidAuthorizationRequest';
  }
}
