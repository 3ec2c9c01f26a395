import type { HttpError } from '@latchkey/http';
import { UpstreamTimeout, UpstreamUnavailable } from '../http/bff.errors.ts';

function isTimeout(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e.name === 'TimeoutError') return true;
  }
  return false;
}

/**
 * A call to the authorization server or the API that got no usable answer: 504 when it ran
 * out of time (AbortSignal.timeout), 503 otherwise (refused, reset, not HTTP at all). Never
 * a 500, and never a 401 that would make the SPA drop a session that may be fine.
 */
export function upstreamFailure(err: unknown, upstream: string): HttpError {
  if (isTimeout(err)) return new UpstreamTimeout(`The ${upstream} did not answer in time.`, { cause: err });
  return new UpstreamUnavailable(`The ${upstream} is unavailable. Try again shortly.`, { cause: err });
}
