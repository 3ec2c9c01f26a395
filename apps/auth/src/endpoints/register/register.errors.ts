import { HttpError } from '@latchkey/http';

// Refusals raised at the registration endpoints' HTTP edge. Each carries its status and the
// error code written once here; registerErrorHandler renders them with their challenges.

/** RFC 7591 §3.2.2 error codes, and RFC 6750's for the bearer tokens these endpoints take. */
export const RegistrationErrorCode = {
  invalidRedirectUri: 'invalid_redirect_uri',
  invalidClientMetadata: 'invalid_client_metadata',
  invalidToken: 'invalid_token',
  invalidRequest: 'invalid_request',
  tooManyRequests: 'too_many_requests',
} as const;

/**
 * DR-06, DR-11: no bearer token where one is needed (RFC 6750 §3.1: the challenge then carries
 * no error code); the body says `invalid_token` like every other token refusal here.
 */
export class MissingRegistrationToken extends HttpError {
  readonly status = 401;
  readonly code = RegistrationErrorCode.invalidToken;
}

/** RFC 6750 §3.1 `invalid_request`: an Authorization header that is not one well-formed Bearer credential. */
export class MalformedRegistrationAuthorization extends HttpError {
  readonly status = 400;
  readonly code = RegistrationErrorCode.invalidRequest;
}
