import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Connect-style middleware. Express's handlers are this with richer request and response
 * types; plain node:http code (the BFF's /bff/graphql fast path) runs the same functions.
 */
export type Middleware<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse = ServerResponse> = (
  req: Req,
  res: Res,
  next: (err?: unknown) => void,
) => unknown;

/**
 * Runs `steps` in order, then `done` with the first error a step passed on. A step that throws,
 * or whose promise rejects before it called `next`, ends the run with that error, the same way
 * whichever the step is (Express 5 does this for a route's own handlers, not for a chain of
 * them inside one).
 */
export function runMiddleware<Req extends IncomingMessage, Res extends ServerResponse>(
  steps: readonly Middleware<Req, Res>[],
  req: Req,
  res: Res,
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
    let called = false;
    const once = (stepErr?: unknown): void => {
      if (called) return;
      called = true;
      next(stepErr);
    };
    try {
      const result = step(req, res, once);
      if (result instanceof Promise) result.catch(once);
    } catch (thrown) {
      once(thrown);
    }
  };
  next();
}

/** Several middlewares as one, run by runMiddleware. */
export function inSequence<Req extends IncomingMessage, Res extends ServerResponse>(
  steps: readonly Middleware<Req, Res>[],
): Middleware<Req, Res> {
  if (steps.length === 1) return steps[0]!;
  return (req, res, next) => runMiddleware(steps, req, res, next);
}
