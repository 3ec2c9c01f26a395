import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import express, { type Request, type RequestHandler } from 'express';
import { signedInSessionOf, type SessionTokens, type SignedInSession } from '../session/session-tokens.ts';
import { BODY_LIMIT_BYTES } from './request-body.ts';
import {
  CLIENT_ADDRESS_HEADER,
  FORWARDED_REQUEST_HEADERS,
  type CallUpstream,
  type UpstreamAnswer,
  type UpstreamRequest,
} from './upstream.ts';

/** The body as bytes, forwarded unchanged: the upstream validates it (e.g. a raw newline in a GraphQL string). */
export const rawBody: RequestHandler = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES });

function forwardedHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = incoming[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** Writes an upstream's answer: its status, its allowlisted headers and its body, unchanged. */
export function relay(res: ServerResponse, answer: UpstreamAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.status === 204 || answer.status === 304) res.end();
  else res.end(answer.body);
}

/** One request to forward: where (BF-PX-01: built from configuration and a validated route only) and what. */
export interface Forward {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  upstream: UpstreamRequest['upstream'];
  /** The browser's request headers; only the allowlist goes on. */
  headers: IncomingHttpHeaders;
  /** The browser's address (AU-04), sent as CLIENT_ADDRESS_HEADER. */
  clientAddress?: string | undefined;
  body: Buffer | undefined;
}

/**
 * Calls the upstream with the session's access token (refreshed and retried once on a 401,
 * BF-PX-02). Shared by the Express routes and the /bff/graphql fast path.
 */
export function forwardWithSession(
  tokens: SessionTokens,
  upstream: CallUpstream,
  session: SignedInSession,
  forward: Forward,
): Promise<UpstreamAnswer> {
  const body = forward.body !== undefined && forward.body.length > 0 ? forward.body : undefined;
  const headers = forwardedHeaders(forward.headers);
  if (body === undefined) delete headers['content-type'];
  if (forward.clientAddress !== undefined) headers[CLIENT_ADDRESS_HEADER] = forward.clientAddress;
  return tokens.withAccessToken(session, (accessToken) =>
    upstream({ url: forward.url, method: forward.method, accessToken, headers, body, upstream: forward.upstream }),
  );
}

/**
 * Forwards the request to one fixed upstream URL, which `target` builds from configuration
 * and the validated route only (BF-PX-01). Status and body come back unchanged.
 */
export function forwardTo(
  tokens: SessionTokens,
  upstream: CallUpstream,
  name: UpstreamRequest['upstream'],
  target: (req: Request) => string,
): RequestHandler {
  return async (req, res) => {
    const answer = await forwardWithSession(tokens, upstream, signedInSessionOf(req), {
      url: target(req),
      method: req.method === 'POST' || req.method === 'PATCH' ? req.method : 'GET',
      upstream: name,
      headers: req.headers,
      clientAddress: req.ip,
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
    });
    relay(res, answer);
  };
}
