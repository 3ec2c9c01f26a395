import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { InvalidRequest } from '@latchkey/core';
import { inSequence, UnsupportedMediaType } from '@latchkey/http';

/** Account requests are a few short fields; anything bigger is refused with 413 unread. */
const BODY_LIMIT = '8kb';

const parseJson = express.json({ limit: BODY_LIMIT, type: 'application/json' });

function requireJsonContentType(req: Request, _res: Response, next: NextFunction): void {
  // No Content-Type at all is almost always a request with no body (fetch without `body`).
  if (req.headers['content-type'] === undefined) throw new InvalidRequest('A JSON request body is required.');
  if (!req.is('application/json')) throw new UnsupportedMediaType('Send the request body as application/json.');
  next();
}

/**
 * Content-type check, then a size-limited JSON parse. Without the check express.json would
 * leave a text/plain or form body unparsed and the handler would see `undefined`.
 */
export const jsonBody: RequestHandler[] = [requireJsonContentType, parseJson];

const readJsonBody = inSequence(jsonBody);

/**
 * For a POST whose JSON body is optional (generating a client secret): a request with no body
 * and no Content-Type, as the BFF forwards a bodiless POST, is `{}`; anything else is read as
 * jsonBody reads it (RFC 9112 §6.3: no body is no Content-Length and no Transfer-Encoding).
 */
export function optionalJsonBody(req: Request, res: Response, next: NextFunction): void {
  const length = req.headers['content-length'];
  const bodiless = req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
  if (req.headers['content-type'] === undefined && bodiless) {
    req.body = {};
    next();
    return;
  }
  readJsonBody(req, res, next);
}
