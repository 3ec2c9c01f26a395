import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Headers on every answer of the API. The body names the token's user, so no cache may keep it
 * (RFC 6750 §5.3 asks the same of token-bearing responses); `nosniff` stops a browser from
 * reading a JSON error as HTML or script.
 */
export const SECURITY_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The GraphQL-over-HTTP error shape, used for answers produced before GraphQL runs. */
export function errorBody(message: string, code: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

/** Writes a complete answer with an explicit Content-Length (no chunked encoding on the hot path). */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string,
  headers?: OutgoingHttpHeaders,
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

export function sendJsonError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string,
  headers?: OutgoingHttpHeaders,
  contentType: string = JSON_CONTENT_TYPE,
): void {
  sendBody(res, status, errorBody(message, code), contentType, headers);
}
