import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nothing that carries credentials, account data or one-time secrets is stored by a cache:
 * OAuth 2.1 §3.2.3 and RFC 6749 §5.1 for the token endpoint (P-04, errors too), the account
 * endpoints and everything under /bff (TS-04). Plain node:http, so Express routes and the BFF's
 * /bff/graphql fast path use the same function.
 */
export function setNoStore(res: ServerResponse): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

export function noStore(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  setNoStore(res);
  next();
}
