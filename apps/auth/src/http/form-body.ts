import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { HttpError } from '@latchkey/http';

/**
 * The authorization server's one application/x-www-form-urlencoded parser, for the pages'
 * forms and the OAuth endpoints' bodies alike; only the size limits differ.
 *
 * - `extended: false` keeps names flat (`a[b]` stays a name), and a repeated name becomes an
 *   array, which every reader refuses (P-02; the pages' schemas take single strings).
 * - Node's query-string decoding keeps `%ZZ` literally and turns bytes that are not UTF-8 into
 *   U+FFFD, so a malformed form would be silently altered: each `name=value` pair must decode as
 *   RFC 3986 percent-encoded UTF-8, and raw bytes must be UTF-8 too (TK-03). A malformed form
 *   is a 400 `invalid_request` in each surface's shape (OAuth JSON, or a page).
 */
export function urlencodedForm(options: { limit: string; parameterLimit?: number }): RequestHandler {
  return express.urlencoded({ extended: false, ...options, verify: assertWellFormedForm });
}

/** The pages' forms: a handful of short fields. */
export const formBody = urlencodedForm({ limit: '16kb', parameterLimit: 20 });

/** An edge refusal (runtime's HttpError), so that the OAuth endpoints and the pages render it alike. */
class MalformedForm extends HttpError {
  readonly status = 400;
  readonly code = 'invalid_request';
}

function assertWellFormedForm(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  const malformed = 'The request body is not a well-formed application/x-www-form-urlencoded document.';
  if (!isUtf8(body)) throw new MalformedForm(malformed);
  for (const pair of body.toString('utf8').split('&')) {
    try {
      decodeURIComponent(pair.replaceAll('+', ' '));
    } catch {
      throw new MalformedForm(malformed);
    }
  }
}
