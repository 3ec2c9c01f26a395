import express, { type Request, type RequestHandler, type Response } from 'express';
import type { SessionTokens } from '../session/session-tokens.ts';
import { FORWARDED_REQUEST_HEADERS, type CallUpstream, type UpstreamAnswer, type UpstreamRequest } from './upstream.ts';

/** Above the API's own limit (100 KiB), so the upstream decides and answers in its own words. */
const BODY_LIMIT = '128kb';

/** The body as bytes, forwarded unchanged: the upstream validates it (e.g. a raw newline in a GraphQL string). */
export const rawBody: RequestHandler = express.raw({ type: () => true, limit: BODY_LIMIT });

function forwardedHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

function relay(res: Response, answer: UpstreamAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.status === 204 || answer.status === 304) res.end();
  else res.end(answer.body);
}

/**
 * Forwards the request to one fixed upstream URL, which `target` builds from configuration
 * and the validated route only (BF-PX-01), with the session's access token (refreshed and
 * retried once on a 401, BF-PX-02). Status and body come back unchanged.
 */
export function forwardTo(
  tokens: SessionTokens,
  upstream: CallUpstream,
  name: UpstreamRequest['upstream'],
  target: (req: Request) => string,
): RequestHandler {
  return async (req, res) => {
    const url = target(req);
    const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : undefined;
    const headers = forwardedHeaders(req);
    if (body === undefined) delete headers['content-type'];
    const method = req.method === 'POST' ? 'POST' : 'GET';
    const answer = await tokens.withAccessToken(req, (accessToken) =>
      upstream({ url, method, accessToken, headers, body, upstream: name }),
    );
    relay(res, answer);
  };
}
