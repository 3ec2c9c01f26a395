/**
 * Domain errors. Each carries a stable `code`, a public description and the HTTP status every
 * surface answers it with, written once here; each app's error handler renders it in its shape
 * (OAuth JSON, account JSON, GraphQL, CLI line). OAuth error codes (RFC 6749 §5.2) are written
 * once, here.
 */
export const ErrorCode = {
  invalidRequest: 'invalid_request',
  invalidClient: 'invalid_client',
  invalidGrant: 'invalid_grant',
  unsupportedGrantType: 'unsupported_grant_type',
  /** RFC 6749 §5.2: the client may not use this grant (DV-09: it did not opt in to the device grant). */
  unauthorizedClient: 'unauthorized_client',
  invalidScope: 'invalid_scope',
  /** RFC 8707 §2: the `resource` is invalid, unknown or not the grant's (RS-01, RS-04, RS-05). */
  invalidTarget: 'invalid_target',
  invalidToken: 'invalid_token',
  validationFailed: 'validation_failed',
  notFound: 'not_found',
  conflict: 'conflict',
  invalidCredentials: 'invalid_credentials',
  limitReached: 'limit_reached',
  /** RFC 8628 §3.5: the device's answers while the user has not decided, or it polls too fast. */
  authorizationPending: 'authorization_pending',
  slowDown: 'slow_down',
  accessDenied: 'access_denied',
  expiredToken: 'expired_token',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * An error whose answer is known where it is raised: its status, code and description. The one
 * base of the domain errors below and of the HTTP edges' refusals (runtime's HttpError).
 */
export abstract class StatusError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** Safe to show to the caller: ASCII, no input echoed (AC-10). */
  readonly description: string;
  constructor(description: string, options?: ErrorOptions) {
    super(description, options);
    this.name = new.target.name;
    this.description = description;
  }
}

/** A rule of core refused the request. */
export abstract class DomainError extends StatusError {
  abstract override readonly code: ErrorCode;
}

export class InvalidRequest extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.invalidRequest;
}
export class InvalidClient extends DomainError {
  readonly status = 401;
  readonly code = ErrorCode.invalidClient;
}
export class InvalidGrant extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.invalidGrant;
}

/** RFC 6749 §5.2 `invalid_scope`: unknown, not allowed for the client, or wider than the grant (SC-02, SC-04). */
export class InvalidScope extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.invalidScope;
}
export class InvalidTarget extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.invalidTarget;
}
export class UnsupportedGrantType extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.unsupportedGrantType;
}
/** RFC 6749 §5.2 `unauthorized_client`: authenticated, but not allowed this grant type (DV-09). */
export class UnauthorizedClient extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.unauthorizedClient;
}
/** Why a token was refused, for the token-check metric (OB-*); never shown to the caller. */
export type InvalidTokenReason = 'invalid' | 'expired' | 'revoked';

export class InvalidToken extends DomainError {
  readonly status = 401;
  readonly code = ErrorCode.invalidToken;
  readonly reason: InvalidTokenReason;
  constructor(description: string, reason: InvalidTokenReason = 'invalid') {
    super(description);
    this.reason = reason;
  }
}
/** Bad input to an account operation; `field` names the offending field. */
export class ValidationFailed extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.validationFailed;
  readonly field: string;
  constructor(field: string, description: string) {
    super(description);
    this.field = field;
  }
}
export class NotFound extends DomainError {
  readonly status = 404;
  readonly code = ErrorCode.notFound;
}
export class Conflict extends DomainError {
  readonly status = 409;
  readonly code = ErrorCode.conflict;
}
export class InvalidCredentials extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.invalidCredentials;
}
/** HD-14: the user already holds as many of something as one account may; revoking one makes room. */
export class LimitReached extends DomainError {
  /** The request is fine but the account holds too many already; revoking one resolves it. */
  readonly status = 409;
  readonly code = ErrorCode.limitReached;
}

/** SR-02: a client already holds MAX_CLIENT_SECRETS live secrets; deleting one makes room. */
export class SecretLimitReached extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.limitReached;
}

/** RFC 8628 §3.5 (DV-*): the user has not approved or denied yet; poll again after the interval. */
export class AuthorizationPending extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.authorizationPending;
}
/** RFC 8628 §3.5: polled sooner than the interval; the interval is now 5 s longer. */
export class SlowDown extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.slowDown;
}
/** RFC 8628 §3.5: the user denied the request. */
export class AccessDenied extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.accessDenied;
}
/** RFC 8628 §3.5: the device code expired; start again. */
export class ExpiredToken extends DomainError {
  readonly status = 400;
  readonly code = ErrorCode.expiredToken;
}
