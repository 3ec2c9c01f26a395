import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { InvalidRequest } from '@latchkey/core';
import { paramsOf, type OAuthParams } from './oauth-params.ts';

/** RFC 7591 §2 `token_endpoint_auth_method` values; `none` is a public client's `client_id` alone (PC-03). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface ClientCredentials {
  method: ClientAuthMethod;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

const CREDENTIALS = 'oauthClientCredentials';

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined with a colon. */
function decodeFormComponent(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    throw new InvalidRequest('The Basic authorization header is malformed.');
  }
}

/** Built only when refusing: an error captures a stack, tens of µs on every authenticated request. */
const malformed = () => new InvalidRequest('The Basic authorization header is malformed.');

function decodeBasic(token: string): { clientId: string; clientSecret: string } {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) throw malformed();
  const bytes = Buffer.from(token, 'base64');
  if (!isUtf8(bytes)) throw malformed();
  const decoded = bytes.toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw malformed();
  return {
    clientId: decodeFormComponent(decoded.slice(0, colon)),
    clientSecret: decodeFormComponent(decoded.slice(colon + 1)),
  };
}

/** RFC 9110 §11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`; the scheme is case-insensitive. */
function splitAuthorization(value: string | undefined): [scheme: string | undefined, rest: string] {
  if (value === undefined) return [undefined, ''];
  const space = value.indexOf(' ');
  return space === -1 ? [value, ''] : [value.slice(0, space), value.slice(space + 1).trim()];
}

function countAuthorizationHeaders(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'authorization') count += 1;
  return count;
}

/**
 * Reads how the client claims to authenticate (RFC 6749 §2.3.1, OAuth 2.1 §2.4.1).
 * - `client_secret_basic` from an `Authorization: Basic` header, or `client_secret_post` from
 *   the form body (CA-01). Never the query string (CA-05).
 * - `none`: a body `client_id` with no secret anywhere, how a public client names itself (RFC 6749
 *   §2.1, OAuth 2.1 §2.4; PC-03). Whether that client may do so is the next step's question.
 * - Both at once is refused (OAuth 2.1 §2.4: one method per request; CA-04, TK-12), and so is a body
 *   `client_id` that names another client than the header (CA-06).
 * - `Authorization: Bearer` is accepted and ignored (D-2): the documented refresh
 *   request carries the often-expired access token there, live or not (TK-RF-09, TK-RF-10). It is
 *   never a client credential (TK-RF-11) and never logged. Other schemes are ignored the same way.
 * - Node keeps only the first of repeated Authorization headers, so repeats are refused rather
 *   than guessed at.
 */
export function extractClientCredentials(
  headers: IncomingHttpHeaders,
  rawHeaders: readonly string[],
  params: OAuthParams,
): ClientCredentials {
  if (countAuthorizationHeaders(rawHeaders) > 1) throw new InvalidRequest('Send at most one Authorization header.');
  const [scheme, token] = splitAuthorization(headers.authorization);
  if (scheme?.toLowerCase() !== 'basic') {
    const method = params.client_secret === undefined ? 'none' : 'client_secret_post';
    return { method, clientId: params.client_id, clientSecret: params.client_secret };
  }
  const { clientId, clientSecret } = decodeBasic(token);
  if (params.client_secret !== undefined) {
    throw new InvalidRequest(
      'Use one client authentication method: either the Basic header or client_secret in the body.',
    );
  }
  if (params.client_id !== undefined && params.client_id !== clientId) {
    throw new InvalidRequest('client_id in the body does not match the Basic authorization header.');
  }
  return { method: 'client_secret_basic', clientId, clientSecret };
}

export const readClientCredentials: RequestHandler = (req, res, next) => {
  res.locals[CREDENTIALS] = extractClientCredentials(req.headers, req.rawHeaders, paramsOf(res));
  next();
};

/** The credentials read for this request, or undefined when reading them failed. */
export function credentialsOf(res: Response): ClientCredentials | undefined {
  return res.locals[CREDENTIALS] as ClientCredentials | undefined;
}
