import type { NextFunction, Request, Response } from 'express';

/** Nothing under /bff is cacheable: session state, account data, one-time secrets (TS-04). */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
  next();
}
