import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { InvalidRequest } from '@latchkey/core';

const FORM = 'application/x-www-form-urlencoded';

/** The token and revocation endpoints take small forms; 10 kB is far above any legitimate request (TK-05). */
const BODY_LIMIT = '10kb';

function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType);
  return match ? match[1]!.toLowerCase() : undefined;
}

/**
 * RFC 6749 §3.2 and RFC 7009 §2.1: parameters arrive as application/x-www-form-urlencoded,
 * in UTF-8 (RFC 6749 Appendix B). Any other type leaves `req.body` undefined in Express, so it
 * is refused here as `invalid_request` rather than misread as "no parameters" (TK-01, TK-02).
 */
export const requireFormBody: RequestHandler = (req, _res, next) => {
  const contentType = req.headers['content-type'];
  if (contentType === undefined || !req.is(FORM)) {
    throw new InvalidRequest('The request body must be application/x-www-form-urlencoded.');
  }
  const charset = charsetOf(contentType);
  if (charset !== undefined && charset !== 'utf-8')
    throw new InvalidRequest('The request body must be encoded in UTF-8.');
  next();
};

/**
 * Node's query-string decoding keeps `%ZZ` literally and turns bytes that are not UTF-8 into
 * U+FFFD, so a malformed form would be silently altered. Each `name=value` pair must decode
 * as RFC 3986 percent-encoded UTF-8, and raw bytes must be UTF-8 too (TK-03).
 */
function assertWellFormedForm(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  const malformed = 'The request body is not a well-formed application/x-www-form-urlencoded document.';
  if (!isUtf8(body)) throw new InvalidRequest(malformed);
  for (const pair of body.toString('utf8').split('&')) {
    try {
      decodeURIComponent(pair.replaceAll('+', ' '));
    } catch {
      throw new InvalidRequest(malformed);
    }
  }
}

/**
 * `extended: false` keeps names flat (`a[b]` stays a name), and repeated names become arrays,
 * which the parameter allowlist rejects (P-02). Errors (413, malformed) reach the endpoint's
 * error middleware and are answered as OAuth JSON.
 */
export const parseFormBody: RequestHandler = express.urlencoded({
  extended: false,
  limit: BODY_LIMIT,
  verify: assertWellFormedForm,
});
