import { HttpError } from './http-error.ts';

// The refusals every HTTP edge shares; each surface's error handler renders them in its shape.
// "No such resource" is core's NotFound (404), one class for the edges and the rules alike.

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
