import type { IncomingMessage } from 'node:http';

/** What the request's Authorization header says, before any token is looked up. */
export type BearerCredentials =
  | { kind: 'token'; token: string }
  /** No Authorization header, or a scheme other than Bearer (RFC 6750 §3.1: no error code). */
  | { kind: 'none' }
  /** `Bearer` with no token, a malformed token, or the header sent twice (RFC 6750 §3.1 invalid_request). */
  | { kind: 'malformed'; reason: string };

/**
 * RFC 6750 §2.1: `credentials = "Bearer" 1*SP b64token`, b64token = 1*( ALPHA / DIGIT /
 * "-" / "." / "_" / "~" / "+" / "/" ) *"=". The scheme is case-insensitive (RFC 9110 §11.1,
 * P-05). `1*SP` means two spaces are valid: GQ-04 is accepted, by the letter of the ABNF.
 * A tab or an inner space (GQ-03) does not match.
 */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
/** Anything that starts with the Bearer scheme but fails the grammar above is malformed, not "no credentials". */
const BEARER_SCHEME = /^bearer(?:[ \t]|$)/i;

/**
 * Reads the bearer token from the Authorization header only, the one rule for the API and the
 * account endpoints (issue 16). RFC 6750 §2.2/§2.3 also allow a form field or a query
 * parameter; OAuth 2.1 says a resource server MUST ignore tokens in the URI (RF-03), and
 * neither surface reads them.
 */
export function parseBearerAuthorization(req: IncomingMessage): BearerCredentials {
  const value = req.headers.authorization;
  if (value === undefined) return { kind: 'none' };
  // Node keeps only the first of two Authorization headers (GQ-07) while a proxy in front may
  // use the last; refuse the ambiguity instead of guessing. rawHeaders still has both.
  if (countAuthorizationHeaders(req.rawHeaders) > 1) {
    return { kind: 'malformed', reason: 'Send exactly one Authorization header.' };
  }
  const match = BEARER.exec(value);
  if (match) return { kind: 'token', token: match[1]! };
  if (BEARER_SCHEME.test(value)) return { kind: 'malformed', reason: 'The Authorization header must be "Bearer <token>".' };
  // GQ-06: another scheme (Basic, Digest...) is "an unsupported authentication method":
  // answered like a request without credentials, 401 with the Bearer challenge and no error.
  return { kind: 'none' };
}

function countAuthorizationHeaders(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') count += 1;
  }
  return count;
}
