/**
 * Domain errors. They carry a stable `code` and a public description but know nothing about
 * HTTP; each app's error handler maps them to a status and body. OAuth error codes
 * (RFC 6749 §5.2) are written once, here.
 */
export const ErrorCode = {
  invalidRequest: 'invalid_request',
  invalidClient: 'invalid_client',
  invalidGrant: 'invalid_grant',
  unsupportedGrantType: 'unsupported_grant_type',
  invalidToken: 'invalid_token',
  validationFailed: 'validation_failed',
  notFound: 'not_found',
  conflict: 'conflict',
  invalidCredentials: 'invalid_credentials',
  limitReached: 'limit_reached',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  /** Safe to show to the caller: ASCII, no input echoed (AC-10). */
  readonly description: string;
  constructor(description: string, options?: ErrorOptions) {
    super(description, options);
    this.name = new.target.name;
    this.description = description;
  }
}

export class InvalidRequest extends DomainError {
  readonly code = ErrorCode.invalidRequest;
}
export class InvalidClient extends DomainError {
  readonly code = ErrorCode.invalidClient;
}
export class InvalidGrant extends DomainError {
  readonly code = ErrorCode.invalidGrant;
}
export class UnsupportedGrantType extends DomainError {
  readonly code = ErrorCode.unsupportedGrantType;
}
export class InvalidToken extends DomainError {
  readonly code = ErrorCode.invalidToken;
}
/** Bad input to an account operation; `field` names the offending field. */
export class ValidationFailed extends DomainError {
  readonly code = ErrorCode.validationFailed;
  readonly field: string;
  constructor(field: string, description: string) {
    super(description);
    this.field = field;
  }
}
export class NotFound extends DomainError {
  readonly code = ErrorCode.notFound;
}
export class Conflict extends DomainError {
  readonly code = ErrorCode.conflict;
}
export class InvalidCredentials extends DomainError {
  readonly code = ErrorCode.invalidCredentials;
}
/** HD-14: the user already holds as many of something as one account may; revoking one makes room. */
export class LimitReached extends DomainError {
  readonly code = ErrorCode.limitReached;
}
