import type { RequestHandler } from 'express';
import { InvalidRequest } from '@latchkey/core';
import { urlencodedForm } from '../../http/form-body.ts';

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

/** Errors (413, malformed) reach the endpoint's error middleware and are answered as OAuth JSON. */
export const parseFormBody = urlencodedForm({ limit: BODY_LIMIT });
