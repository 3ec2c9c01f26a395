import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import typeis from 'type-is';
import { UnsupportedMediaType } from '@latchkey/http';
import { Forbidden } from './bff.errors.ts';

/** The header the SPA sends on every state-changing call (DD-9). */
export const PORTAL_HEADER = 'x-latchkey-portal';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * CSRF defence for the JSON API (BBA "Cookie Security"; DD-9: a custom header plus origin
 * checks). A request that changes state (creating a client or a token, revoking one: BF-CS-05)
 * must carry `X-Latchkey-Portal: 1`, which a cross-site form or a "simple" fetch cannot send
 * without a CORS preflight this server never grants (BF-CS-01, BF-CS-03, BF-LO-02); and when the
 * browser says where it comes from, `Origin` must be the portal and `Sec-Fetch-Site` same-origin
 * (BF-CS-02). Reads get the provenance check too: a
 * proxied GET from another site has no business here. Runs before the session is loaded, so
 * a refused request costs no database read and reaches no upstream.
 *
 * A plain function of the node:http request: the Express routes and the /bff/graphql fast
 * path (proxy/graphql-fast-path.ts) both call it.
 */
export function checkPortalRequest(req: IncomingMessage, portalOrigin: string): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== portalOrigin) throw new Forbidden('Cross-origin requests are refused.');
  const site = req.headers['sec-fetch-site'];
  const method = req.method ?? 'GET';
  if (site !== undefined && site !== 'same-origin' && !(site === 'none' && SAFE_METHODS.has(method))) {
    throw new Forbidden('Cross-site requests are refused.');
  }
  if (!SAFE_METHODS.has(method) && req.headers[PORTAL_HEADER] !== '1') {
    throw new Forbidden(`Send the ${PORTAL_HEADER} header.`);
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Only JSON bodies are accepted (BF-CS-04): a text/plain or form body is what a cross-site
 * page can send without a preflight, so it is refused even from the portal's own origin.
 * The media type is matched by type-is, as Express's `req.is` does.
 */
export function checkJsonBody(req: IncomingMessage): void {
  if (hasBody(req) && !typeis(req, ['application/json'])) {
    throw new UnsupportedMediaType('Send the request body as application/json.');
  }
}

export function requirePortalRequest(portalOrigin: string) {
  return function portalRequest(req: Request, _res: Response, next: NextFunction): void {
    checkPortalRequest(req, portalOrigin);
    next();
  };
}

export function requireJsonIfBody(req: Request, _res: Response, next: NextFunction): void {
  checkJsonBody(req);
  next();
}
