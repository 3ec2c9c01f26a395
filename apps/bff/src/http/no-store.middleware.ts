import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nothing under /bff is cacheable: session state, account data, one-time secrets (TS-04).
 * Plain node:http, so the /bff/graphql fast path sets the same headers.
 */
export function noStore(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  next();
}
