import { HttpError } from './http-error.ts';

// The refusals every HTTP edge shares; each surface's error handler renders them in its shape.

export class NotFound extends HttpError {
  readonly status = 404;
  readonly code = 'not_found';
}

export class MethodNotAllowed extends HttpError {
  readonly status = 405;
  readonly code = 'method_not_allowed';
  /** The methods the resource does take, for the Allow header. */
  readonly allow: string;
  constructor(allow: string) {
    super(`Use ${allow} for this endpoint.`);
    this.allow = allow;
  }
}

export class UnsupportedMediaType extends HttpError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
}
