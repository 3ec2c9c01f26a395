import type { RequestHandler, Response } from 'express';

/**
 * OAuth 2.1 §3.2.3 and RFC 6749 §5.1: every response that carries tokens or credentials is
 * not stored, and the token endpoint's errors are treated the same (P-04).
 */
export function setNoStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

export const noStore: RequestHandler = (_req, res, next) => {
  setNoStore(res);
  next();
};
