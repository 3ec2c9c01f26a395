import type { RequestHandler } from 'express';

/** OAuth 2.1 §3.2: the token and revocation endpoints take POST only (P-03, TK-04). */
export const methodNotAllowed: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'POST');
  res.status(405).json({ error: 'invalid_request', error_description: 'This endpoint accepts POST only.' });
};
