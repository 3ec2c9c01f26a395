import type { Scope } from '@latchkey/contracts';
import { HttpError } from '@latchkey/http';

// Errors raised at the account endpoints' HTTP edge (not domain rules, which live in core).
// Each carries its status and the error code written once here; the account error handler
// turns them into JSON.

/** RFC 6750 §3: no credentials at all, so the challenge carries no error code. */
export class MissingToken extends HttpError {
  readonly status = 401;
  readonly code = 'unauthenticated';
}

/** RFC 6750 §3.1 `invalid_request`: an Authorization header that is not a well-formed Bearer credential. */
export class MalformedAuthorization extends HttpError {
  readonly status = 400;
  readonly code = 'invalid_request';
}

/**
 * RFC 6750 §3.1 `insufficient_scope`: a valid token without the scope the request needs (SC-08:
 * `account`, which only the portal's own tokens hold). `scope` is the challenge's `scope` attribute.
 */
export class InsufficientScope extends HttpError {
  readonly status = 403;
  readonly code = 'insufficient_scope';
  readonly scope: Scope;
  constructor(description: string, scope: Scope) {
    super(description);
    this.scope = scope;
  }
}

/** HD-14: more creations (clients, client secrets and tokens together) than the per-user rate allows; Retry-After says when to try again. */
export class TooManyCreations extends HttpError {
  readonly status = 429;
  readonly code = 'too_many_requests';
}
