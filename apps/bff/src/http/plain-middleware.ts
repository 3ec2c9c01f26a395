import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Connect-style middleware on plain node:http objects. The steps every /bff response goes
 * through (request log, security headers, no-store) are written this way, so the Express app
 * and the /bff/graphql fast path run the very same functions.
 */
export type PlainMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** Runs `steps` in order, then `done` (with the first error a step passed on, if any). */
export function runMiddleware(
  steps: readonly PlainMiddleware[],
  req: IncomingMessage,
  res: ServerResponse,
  done: (err?: unknown) => void,
): void {
  let index = 0;
  const next = (err?: unknown): void => {
    const step = steps[index];
    index += 1;
    if ((err !== undefined && err !== null) || step === undefined) {
      done(err);
      return;
    }
    try {
      step(req, res, next);
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
}
