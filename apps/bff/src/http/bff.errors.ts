import { HttpError } from '@latchkey/http';

// Errors raised at the BFF's HTTP edge. Each carries its status and its error code, written
// once here; http/error-handler.ts turns them into `{error, error_description}` JSON, or a
// small page on the browser-navigation routes (sign-in start and callback).

/** DD-9: a state-changing request without the portal's header, or from another origin. */
export class Forbidden extends HttpError {
  readonly status = 403;
  readonly code = 'forbidden';
}

/** No live session, or one whose tokens the authorization server no longer honours (BF-RT-02). */
export class Unauthenticated extends HttpError {
  readonly status = 401;
  readonly code = 'unauthenticated';
}

/**
 * The session's grant is gone (refresh answered invalid_grant, or a fresh token is refused):
 * the session must be destroyed before the 401 (BF-RT-02).
 */
export class SessionEnded extends Unauthenticated {}

/** A body above the proxy's limit (the same limit and answer as body-parser's on the Express routes). */
export class PayloadTooLarge extends HttpError {
  readonly status = 413;
  readonly code = 'payload_too_large';
}
/** A request body that could not be read (the client went away half-way, for one). */
export class UnreadableRequest extends HttpError {
  readonly status = 400;
  readonly code = 'invalid_request';
}
/** BF-ST-*: the callback does not belong to a sign-in this browser started (RFC 9700 §4.7). */
export class InvalidCallback extends HttpError {
  readonly status = 400;
  readonly code = 'invalid_callback';
}

/** An upstream (authorization server or API) could not be reached or failed to answer. */
export class UpstreamUnavailable extends HttpError {
  readonly status = 503;
  readonly code = 'upstream_unavailable';
}

/** An upstream did not answer within the time limit. */
export class UpstreamTimeout extends HttpError {
  readonly status = 504;
  readonly code = 'upstream_timeout';
}

/**
 * BF-RD-01: the session store (the database) failed. A 503 with Retry-After, never a 401:
 * "no session" would send the SPA to sign in, and sign-in needs the same store, so a 401
 * here starts a loop.
 */
export class SessionStoreUnavailable extends HttpError {
  readonly status = 503;
  readonly code = 'temporarily_unavailable';
}

/** Too many sign-in starts from one address. */
export class TooManyRequests extends HttpError {
  readonly status = 429;
  readonly code = 'too_many_requests';
}
