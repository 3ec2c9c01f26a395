import type { RequestHandler } from 'express';

/**
 * BF-RD-01: while its store reports itself disconnected (Redis down), express-session calls
 * next() without setting req.session. Read as "not signed in", that would show or start a
 * sign-in, which needs the same store: a login loop. `unavailable()` makes it a 503 instead
 * (D-10). Wraps the express-session middleware `load`.
 */
export function requireLoadedSession(load: RequestHandler, unavailable: () => Error): RequestHandler {
  return (req, res, next) => {
    load(req, res, (err?: unknown) => {
      if (err !== undefined && err !== null) next(err);
      else if ((req as { session?: unknown }).session === undefined) next(unavailable());
      else next();
    });
  };
}
